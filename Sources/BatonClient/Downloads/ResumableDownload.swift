import BatonSupport
import BatonOpenSSL
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import BatonPromise
import BatonWire

/// The file one download fills, over as many transfers as it takes: each attempt after the first
/// asks only for what is missing (`Range`, with `If-Range` naming the validator of what is
/// there), and a transfer cut short leaves what arrived for the next one.
///
/// The client makes one per ``Client/download(_:to:options:)`` call and hands it to the transport
/// as ``BodyDestination/file(_:)``; the exchange stage has already set each attempt's range
/// fields. A transport writes a `2xx` body in one of two ways:
/// - into ``file``, from the offset ``accept(status:headers:)`` returns for the response's head
///   (what ``HTTP1Transport`` does): a transfer cut short then keeps what arrived, and the next
///   attempt asks for the rest;
/// - or into a temporary file of its own, named in ``HTTPResponse/bodyFile`` (what
///   ``URLSessionTransport`` does), or in memory: the client then puts the body into ``file``
///   itself, where the head says, and only whole responses count.
///
/// Checks:
/// - a `206` must start exactly where the file ends (its `Content-Range`), or the response is
///   refused and the next attempt starts over;
/// - any other `2xx` (the server ignored the range, or the file changed and `If-Range` did not
///   match) starts over, and says so (`startedOver`);
/// - the whole file's size must be the representation's length, and its SHA-256 the one the
///   server names, if it names one (checked when the download ends).
///
/// Kept (``DownloadOptions/keepsPartialFile``), the file and a record of its validator stay
/// beside the destination after a failure, for a later call (in this process or another) to go
/// on from.
public final class ResumableDownload: Sendable {
    /// Where the bytes go. It exists, readable by this user only; write into it only after
    /// ``accept(status:headers:)``.
    public let file: URL
    /// The record of a kept download's validator, beside ``file``; `nil` when not kept.
    let record: URL?
    /// Told when what had arrived is thrown away, with why.
    let startedOver: @Sendable (String) -> Void
    /// Everything above that changes, under its lock: read and changed by this type's own files
    /// only (`ResumableDownload+*.swift`).
    let state = Lock(State())

    struct State {
        var recordRead = false
        /// The URL the bytes came from: a kept file is only taken up for the same one.
        var url: String?
        /// The strong `ETag`, else the `Last-Modified`, of the representation in the file.
        var validator: String?
        /// The representation's length, when known.
        var total: Int64?
        /// Where the range asked by the attempt on the wire starts; 0 when none was asked.
        var asked: Int64 = 0
        /// The SHA-256 the response filling the file names, if any.
        var named: [UInt8]?
        /// The SHA-256 of the whole file, as the transport computed it while writing.
        var computed: [UInt8]?
        /// The call is over: a transport still going may not make the file again.
        var ended = false
        /// Whether the endpoint asks for a range of its own (`nil` until the first attempt): the
        /// response is then written as it is, never resumed.
        var userRange: Bool?
        /// The digest of a cut transfer's bytes, and how many bytes of the file it covers: the
        /// next attempt goes on from it rather than reading the file again.
        var partialDigest: (digest: DigestSHA256, covering: Int64)?
    }

    /// Whether each attempt asks the server to name the representation's digest.
    let asksForDigest: Bool

    init(file: URL, record: URL?, asksForDigest: Bool = true, startedOver: @escaping @Sendable (String) -> Void) {
        self.file = file
        self.record = record
        self.asksForDigest = asksForDigest
        self.startedOver = startedOver
    }

    /// The bytes in the file now.
    var length: Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: file.path))?[.size] as? NSNumber)?.int64Value ?? 0
    }

    /// The progress of the download before an attempt: the bytes already there, of the total.
    var progressSoFar: PromiseProgress? {
        let have = length
        guard have > 0 else { return nil }
        return PromiseProgress(completed: have, total: state.withLock(annotating: self) { $0.total }, kind: .bytesReceived)
    }

    // MARK: Each attempt

    /// Adds the range fields to an attempt's `request`: from the end of the file, if it holds
    /// bytes of a representation with a validator, from the same URL. A file that cannot be taken
    /// up is emptied, saying why.
    func prepare(_ request: inout URLRequest) {
        let hasRange = request.value(forHTTPHeaderField: "Range") != nil
        let userRange = state.withLock(annotating: self) { state in
            if state.userRange == nil { state.userRange = hasRange }
            return state.userRange!
        }
        // The endpoint's own range: its response is the file, as asked.
        guard !userRange else { return }
        // Only a request that asked for a range before (a 416's) is changed: on Linux a URLRequest
        // changed is copied whole.
        if hasRange {
            request.setValue(nil, forHTTPHeaderField: "Range")
            request.setValue(nil, forHTTPHeaderField: "If-Range")
        }
        let url = request.url?.absoluteString ?? ""
        readRecordOnce()
        let have = length
        let (validator, known) = state.withLock(annotating: self) { state -> (String?, String?) in
            state.asked = 0
            state.named = nil
            state.computed = nil
            defer { state.url = url }
            return (state.url == url ? state.validator : nil, state.url)
        }
        if asksForDigest { request.setValue("sha-256=10", forHTTPHeaderField: "Want-Repr-Digest") }
        guard have > 0 else { return }
        guard let validator else {
            let reason = known == url ? "the server named no validator (ETag or Last-Modified) for it" : "it came from another URL"
            return startOver(because: "the \(have) bytes already downloaded cannot be taken up: \(reason)")
        }
        request.setValue("bytes=\(have)-", forHTTPHeaderField: "Range")
        request.setValue(validator, forHTTPHeaderField: "If-Range")
        state.withLock(annotating: self) { $0.asked = have }
    }

    /// Where the body of a `2xx` response goes in the file, as its head says: after the bytes there
    /// for a `206` that starts where they end, from the start for any other. The file is cut to
    /// that offset, so what follows is the response's.
    ///
    /// - Throws: `URLError(.badServerResponse)` for a `206` that is not the range asked (the
    ///   file is emptied: the next attempt starts over).
    public func accept(status: Int, headers: (String) -> String?) throws(URLError) -> (offset: Int64, total: Int64?) {
        let (asked, ended, userRange, known) = state.withLock(annotating: self) { ($0.asked, $0.ended, $0.userRange ?? false, ($0.validator, $0.total)) }
        // The call is over (cancelled): a late response changes nothing, the record least of all.
        guard !ended else { throw URLError(.cancelled) }
        if userRange {
            try cut(at: 0)
            return (0, nil)
        }
        // A digest names the representation as sent: of the encoded bytes, when there is a
        // content coding, which the file (decoded) cannot be checked against.
        let encoded = headers("Content-Encoding").map { !WireText.equalIgnoringCase($0, "identity") } ?? false
        let named = encoded ? nil : RepresentationDigest.sha256(in: headers, status: status)
        if status == 206 {
            let field = headers("Content-Range")
            guard asked > 0, let field, let range = ContentRange(field), let sent = range.range, sent.lowerBound == asked, length >= asked else {
                startOver(because: "the server's 206 answer (Content-Range: \(field ?? "none")) is not the range asked, bytes \(asked)-")
                throw URLError(.badServerResponse, detail: "a 206 answer whose Content-Range (\(field ?? "none")) is not the range asked (bytes \(asked)-)")
            }
            // The rest of another version (a server that ignored If-Range): never spliced on.
            let etag = headers("ETag")
            let otherTag = etag != nil && known.0?.hasPrefix("\"") == true && etag != known.0
            let otherLength = range.completeLength != nil && known.1 != nil && range.completeLength != known.1
            guard !otherTag, !otherLength else {
                startOver(because: "the server's 206 answer is of another version of the file (\(otherTag ? "ETag \(etag ?? "")" : "length \(range.completeLength ?? 0)"))")
                throw URLError(.badServerResponse, detail: "a 206 answer of another version of the file than the bytes already downloaded")
            }
            let total = range.completeLength ?? known.1
            state.withLock(annotating: self) { state in
                state.named = named
                state.total = total
            }
            try cut(at: asked)
            return (asked, total)
        }
        if asked > 0 {
            startOver(because: "the server sent the whole file rather than the rest asked for: it changed there (its validator no longer matches), or the server does not send ranges")
        }
        let total = encoded ? nil : headers("Content-Length").flatMap { Int64($0) }
        let validator = encoded ? nil : Self.validator(in: headers)
        let current = state.withLock(annotating: self) { state in
            guard !state.ended else { return false }
            state.validator = validator
            state.total = total
            state.named = named
            return true
        }
        guard current else { throw URLError(.cancelled) }
        try cut(at: 0)
        writeRecord()
        return (0, total)
    }

    /// What `If-Range` may name for a response with `headers` (RFC 9110 §13.1.5): its strong
    /// `ETag`; without one, its `Last-Modified` when that is a strong validator, a second or more
    /// before the response's `Date`. A weak `ETag`, or a date that may name two versions, cannot
    /// be resumed from.
    static func validator(in headers: (String) -> String?) -> String? {
        if let etag = headers("ETag") { return etag.hasPrefix("\"") ? etag : nil }
        guard let text = headers("Last-Modified"), let modified = HTTPDate.parse(text),
              let date = headers("Date").flatMap(HTTPDate.parse), date.timeIntervalSince(modified) >= 1
        else { return nil }
        return text
    }

    /// Whether `response`, to an attempt that asked for a range, says the range cannot be sent
    /// (`416`: the file there is not a beginning of the representation); what was there is then
    /// thrown away, and the request is to be sent again for the whole.
    func startsOver(after response: HTTPResponse) -> Bool {
        guard response.statusCode == 416, state.withLock(annotating: self, { $0.asked }) > 0 else { return false }
        startOver(because: "the server cannot send the range asked (416 \(response.value(forHeader: "Content-Range") ?? ""))")
        return true
    }

    /// The call ended: a failed one's file is removed, unless kept for later; a successful one's
    /// was moved into place, and its record goes.
    func end(succeeded: Bool) {
        state.withLock(annotating: self) { $0.ended = true }
        if succeeded || record == nil {
            try? FileManager.default.removeItem(at: file)
            if let record { try? FileManager.default.removeItem(at: record) }
            return
        }
        // Bytes without a validator can never be taken up: they are not kept.
        guard length > 0, state.withLock(annotating: self, { $0.validator != nil }) else {
            try? FileManager.default.removeItem(at: file)
            if let record { try? FileManager.default.removeItem(at: record) }
            return
        }
        writeRecord()
    }
}
