import BatonOpenSSL
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import BatonPromise
import BatonWire

/// Where a response's body goes as it arrives, once any `gzip` or `deflate` coding is undone: to
/// memory, never past ``TransferOptions/maximumResponseSize``, or, for a download's successful
/// response, to its file, each piece as it comes off the wire. A body in a coding Baton
/// cannot undo and the request did not ask for fails the response (see ``ContentCoding``).
///
/// A body declared longer than the limit is refused before a byte of it is read; one that grows
/// past it while it arrives (or inflates past it) is refused the moment it does, so memory stays
/// bounded whatever the server sends.
struct BodySink {
    private let request: InFlightRequest
    private let limit: Int
    private var inflater: Inflater?
    /// Whether any body byte reached the inflater.
    private var fedInflater = false
    /// Why the body's content coding is refused (see ``ContentCoding``): the response fails with
    /// its first body byte, so that a body-less one (a `HEAD`'s, a `304`) naming it does not.
    private var refusal: String?
    private var data = Data()
    private var download: (url: URL, handle: FileHandle)?
    /// The download's file when it is a resumable one's: kept after a failure, for the next
    /// attempt to go on from.
    private var resumable: ResumableDownload?
    /// Where the download's body starts in its file: after the bytes a `206` goes on from.
    private var offset: Int64 = 0
    /// The whole file's SHA-256, as it is written, when the response names one to check against.
    private var digest: DigestSHA256?
    /// Where a streamed response's body goes instead, when the request streams and the response
    /// was accepted for it.
    private var stream: BodyStream?
    /// A streamed body's pieces from one read of the socket, handed to `stream` together: a
    /// server that sends each event in a chunk of its own would otherwise cost a hand-over each.
    private var streamed: [UInt8] = []
    /// Body bytes kept so far, after decoding.
    private(set) var received: Int64 = 0
    /// The total for progress reports: the declared length, when the body is not encoded (a
    /// resumed download's whole length).
    private let total: Int64?
    private let reportsEachChunk: Bool

    init(head: ResponseHead, declaredLength: Int64?, request: InFlightRequest) throws(URLError) {
        self.request = request
        let options = request.options
        let downloadFile = (200..<300).contains(head.status) ? options.destination.file : nil
        stream = options.destination.stream.flatMap { $0.accepts(status: head.status, headers: ResponseReader.headers(of: head)) ? $0 : nil }
        // A streamed body is bounded element by element, by the stream.
        limit = downloadFile != nil || stream != nil ? Int.max : options.maximumResponseSize
        if let declaredLength, declaredLength > Int64(limit) {
            throw URLError(.dataLengthExceedsMaximum, detail: "the answer declares \(declaredLength) bytes")
        }
        switch ContentCoding(contentEncoding: head.values(for: "Content-Encoding"), asked: request.request.value(forHTTPHeaderField: "Accept-Encoding")) {
        case .asItCame: break
        case .inflate(let format): inflater = Inflater(format: format, limit: limit)
        case .refused(let reason): refusal = reason
        }
        var total = inflater == nil ? declaredLength : nil
        reportsEachChunk = options.reportsEachPiece(sendingBody: request.body != nil)
        if let resumable = downloadFile {
            let placement = try resumable.accept(status: head.status, headers: { head[$0] })
            let handle: FileHandle
            do {
                handle = FileHandle(fileDescriptor: try PrivateFile.openExisting(resumable.file.path), closeOnDealloc: true)
            } catch {
                throw URLError(.cannotWriteToFile, detail: "the download's file cannot be opened: \(error)")
            }
            guard (try? handle.seekToEnd()) != nil else {
                throw URLError(.cannotWriteToFile, detail: "the download's file cannot be opened: its end cannot be found")
            }
            download = (resumable.file, handle)
            self.resumable = resumable
            offset = placement.offset
            if inflater == nil { total = placement.total ?? declaredLength.map { $0 + placement.offset } }
            if resumable.wantsDigest {
                digest = resumable.takeDigest(covering: placement.offset) ?? FileDigest.sha256(ofFirst: placement.offset, of: resumable.file)
            }
        }
        self.total = total
    }

    /// Takes a piece of the body as it came off the wire.
    mutating func append(_ bytes: UnsafeRawBufferPointer) throws {
        if let refusal, !bytes.isEmpty { throw URLError(.cannotDecodeContentData, detail: refusal) }
        if var inflater {
            fedInflater = true
            self.inflater = nil
            defer { self.inflater = inflater }
            do {
                try inflater.feed(bytes) { decoded in try keep(decoded) }
            } catch let error as InflateError where error.kind == .tooLarge {
                throw URLError(.dataLengthExceedsMaximum, detail: "the answer inflates past the limit")
            } catch let error as InflateError {
                throw URLError(.cannotDecodeContentData, detail: error.description)
            }
        } else {
            try keep(bytes)
        }
    }

    private mutating func keep(_ bytes: UnsafeRawBufferPointer) throws {
        guard bytes.count <= limit - Int(clamping: received) else {
            throw URLError(.dataLengthExceedsMaximum, detail: "the answer is longer than the limit")
        }
        received += Int64(bytes.count)
        if stream != nil {
            streamed.append(contentsOf: bytes)
            // A small piece can inflate a thousandfold: hand over at most a read's worth at once.
            if streamed.count >= 64 << 10 { try endOfRead() }
        } else if let download {
            // A download whose call is over (cancelled) writes nothing more: its kept file may
            // already be another call's.
            if let resumable, resumable.hasEnded { throw URLError(.cancelled) }
            // Straight from the read buffer to the file: pieces are tens of kibibytes already.
            do {
                try download.handle.write(contentsOf: bytes)
                digest?.update(bytes)
            } catch {
                throw URLError(.cannotWriteToFile, detail: "the download could not be written (\(error.localizedDescription))")
            }
        } else {
            data.append(contentsOf: bytes)
        }
        // After each decoded piece: a body that inflates shows its growth as it happens.
        if reportsEachChunk {
            request.report(PromiseProgress(completed: offset + received, total: total, kind: .bytesReceived))
        }
    }

    /// Hands a streamed body's pieces from the last read to the stream. The connection's thread
    /// waits here while the stream's reader catches up: TCP then holds the server back.
    mutating func endOfRead() throws {
        guard let stream, !streamed.isEmpty else { return }
        defer { streamed.removeAll(keepingCapacity: true) }
        let taken = streamed.withUnsafeBytes { stream.receive($0, canWait: true) }
        guard taken else {
            if let failure = stream.failure {
                throw URLError(.dataLengthExceedsMaximum, detail: "\(stream.format.elementName) is larger than the stream's limit of \(failure.limit) bytes")
            }
            throw URLError(.cancelled)
        }
    }

    /// The body, or the download's file, once the response is complete.
    mutating func finish() throws -> (body: Data, file: URL?) {
        try endOfRead()
        // An encoded response with no body at all (a HEAD's, a 204's) has nothing to finish.
        if let inflater, fedInflater {
            do { try inflater.finish() } catch { throw URLError(.cannotDecodeContentData, detail: error.description) }
        }
        if !reportsEachChunk {
            request.report(PromiseProgress(completed: offset + received, total: offset + received, kind: .bytesReceived))
        }
        if let digest {
            resumable?.computed(digest.finish())
            // A finished digest takes no more: none is kept for another attempt.
            self.digest = nil
        }
        guard let download else { return (data, nil) }
        do {
            try download.handle.close()
        } catch {
            discard()
            throw error
        }
        return (Data(), download.url)
    }

    /// Removes the download's file after a failure: nothing is left behind. A resumable
    /// download's file stays, with what arrived, for the next attempt.
    func discard() {
        guard let download else { return }
        try? download.handle.close()
        if resumable == nil { try? FileManager.default.removeItem(at: download.url) }
        // The next attempt goes on from the digest of what arrived, not from reading it again.
        if let digest { resumable?.keep(digest, covering: offset + received) }
    }
}
