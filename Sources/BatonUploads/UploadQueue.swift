import BatonSupport
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import BatonPromise
import BatonWire
import BatonClient

/// Uploads recorded on disk until they succeed, so that a photo that failed, or was still
/// waiting when the app quit, can be sent again later, by this process or a new one.
///
/// ```swift
/// let queue = UploadQueue(folder: support.appending(path: "uploads"), client: client)
/// client.send(Reviews.post(facilityID: 1, content: "良い", rating: 5))
///     .success { review -> Promise<[UploadOutcome]> in
///         let uploads = try photos.map { try queue.add(Photos.form($0), to: "reviews/\(review.id)/photos") }
///         return queue.send(uploads)
///     }
///     .success { outcomes in tell(outcomes.filter { $0.error != nil }.count, "photos will be sent later") }
///
/// // At the next launch: whatever is left.
/// queue.send()
/// ```
///
/// - ``add(_:to:method:headers:)`` copies every file of the form, and writes its in-memory parts,
///   into the queue's folder (mode 0600) before recording the upload, so the record never
///   depends on files the app may delete.
/// - A successful upload's record and copies are removed at once. A failed one stays, with its
///   attempt count raised and its error; a cancelled one stays as it was.
/// - An upload being sent is claimed by a lock file naming the process, so two processes never
///   send it at once; a claim left by a process that died is taken over.
/// - Each upload is recorded with an idempotency key (see `Endpoint.idempotencyKey`), sent
///   with every send of it, whichever process sends it: a server that honours keys stores it
///   once, even when a response was lost and it was sent again, and the retry policy retries it.
/// - Records hold the endpoint's own headers, not the client's: keep credentials in the client's
///   configuration or an `Authenticator`, never in a recorded upload.
public final class UploadQueue: Sendable {
    /// The folder holding a folder per upload.
    package let folder: URL
    /// The client that sends the uploads.
    package let client: Client

    /// A queue recording uploads in `folder` (made when first needed) and sending them through `client`.
    public init(folder: URL, client: Client) {
        self.folder = folder
        self.client = client
    }

    /// Records an upload of `form` to `path` and returns it; nothing is sent until ``send(_:concurrency:)``.
    ///
    /// - Throws: `EntityStoreError` when a file of the form cannot be copied or the record
    ///   cannot be written; nothing is left behind then.
    @discardableResult
    public func add(_ form: MultipartForm, to path: EndpointPath, method: HTTPMethod = .post, headers: [String: String] = [:]) throws -> PendingUpload {
        let id = UUID().uuidString
        let recordFolder = folder.appending(path: id, directoryHint: .isDirectory)
        do {
            try FileManager.default.createDirectory(at: recordFolder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            var parts: [UploadRecord.Part] = []
            for (index, part) in form.parts.enumerated() {
                let name = "part-\(index)"
                let copy = recordFolder.appending(path: name)
                switch part.content {
                case .data(let data):
                    try AtomicFile.write(data, to: copy.path, flush: true)
                case .file(let url):
                    try FileManager.default.copyItem(at: url, to: copy)
                    // A copy keeps the original's mode, which may let others read it.
                    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: copy.path)
                }
                parts.append(UploadRecord.Part(name: part.name, filename: part.filename, contentType: part.contentType, file: name))
            }
            let record = UploadRecord(
                id: id, method: method.rawValue, path: path.encoded, headers: headers, parts: parts,
                attempts: 0, lastError: nil, createdAt: Date(), boundary: form.boundary, idempotencyKey: IdempotencyKey.make()
            )
            try write(record)
            return record.pending
        } catch {
            try? FileManager.default.removeItem(at: recordFolder)
            throw EntityStoreError(.unwritable, entity: "upload", id: id, reason: Self.reason(error))
        }
    }

    /// The uploads recorded and not yet finished, oldest first. Records that cannot be read
    /// (half written by a process that died) are left out.
    public func pending() -> [PendingUpload] {
        records().map(\.pending)
    }

    /// Sends `uploads` (by default every pending one), at most `concurrency` at a time, and
    /// fulfils with each one's outcome, in order; it never rejects because one failed. Progress
    /// is the bytes sent of the whole batch. An upload another process is sending is left out.
    public func send(_ uploads: [PendingUpload]? = nil, concurrency: Int = 3) -> Promise<[UploadOutcome]> {
        let wanted = uploads.map { Set($0.map(\.id)) }
        let claimed = records().filter { wanted?.contains($0.id) ?? true }.filter(claim).map(keyed)
        let endpoints = claimed.map { endpoint(for: $0) }
        return client.sendEach(endpoints, concurrency: concurrency).success { [self] outcomes in
            zip(claimed, outcomes).map { record, outcome in
                finish(record, with: outcome.result)
                return UploadOutcome(upload: record.pending, result: outcome.result)
            }
        }
        .always { [self] in claimed.forEach(release) }
    }

    /// Forgets `upload`: its record and copies are removed.
    public func remove(_ upload: PendingUpload) {
        try? FileManager.default.removeItem(at: folder.appending(path: upload.id))
    }

    // MARK: Records

    private func recordFile(_ id: String) -> URL { folder.appending(path: id).appending(path: "record.json") }

    private func write(_ record: UploadRecord) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        try AtomicFile.write(encoder.encode(record), to: recordFile(record.id).path, flush: true)
    }

    private func records() -> [UploadRecord] {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let ids = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return ids.compactMap { id in
            guard let data = try? AtomicFile.read(recordFile(id).path) else { return nil }
            return try? decoder.decode(UploadRecord.self, from: data)
        }
        .sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
    }

    /// The endpoint that sends `record`: its form rebuilt from the copies, with its boundary.
    private func endpoint(for record: UploadRecord) -> Request<HTTPResponse> {
        var form = MultipartForm(boundary: record.boundary)
        for part in record.parts {
            let file = folder.appending(path: record.id).appending(path: part.file)
            form.add(MultipartForm.Part(name: part.name, filename: part.filename, contentType: part.contentType, content: .file(file)))
        }
        var request = Request<HTTPResponse>(HTTPMethod(rawValue: record.method), EndpointPath(stringLiteral: record.path), headers: record.headers, body: .multipart(form))
        request.idempotencyKey = record.idempotencyKey
        return request
    }

    /// `record` with an idempotency key, made and written now for a record that has none (one
    /// written before uploads had keys), so that every later send uses the same one.
    private func keyed(_ record: UploadRecord) -> UploadRecord {
        guard record.idempotencyKey == nil else { return record }
        var keyed = record
        keyed.idempotencyKey = IdempotencyKey.make()
        // Unwritten, the key still serves this send; the next one makes another.
        try? write(keyed)
        return keyed
    }

    /// Removes a finished upload; records a failed one's attempt.
    private func finish(_ record: UploadRecord, with result: Result<HTTPResponse, any Error>) {
        switch result {
        case .success:
            try? FileManager.default.removeItem(at: folder.appending(path: record.id))
        case .failure(let error) where !error.isCancellation:
            var failed = record
            failed.attempts += 1
            failed.lastError = "\(error)"
            try? write(failed)
        case .failure:
            break
        }
    }

    // MARK: Claims

    private func lockFile(_ record: UploadRecord) -> String { folder.appending(path: record.id).appending(path: "sending.lock").path }

    /// Claims `record` for this process; `false` when a live process holds it.
    private func claim(_ record: UploadRecord) -> Bool {
        let path = lockFile(record)
        for _ in 0..<2 {
            if let descriptor = try? PrivateFile.create(path) {
                let pid = Data("\(getpid())".utf8)
                _ = pid.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress!, $0.count) }
                close(descriptor)
                return true
            }
            // Held: by a live process, or left by one that died.
            guard let owner = (try? AtomicFile.read(path)).flatMap({ $0 }).flatMap({ Int32(String(decoding: $0, as: UTF8.self)) }),
                  owner != getpid(), kill(owner, 0) != 0, errno == ESRCH
            else { return false }
            unlink(path)
        }
        return false
    }

    private func release(_ record: UploadRecord) {
        unlink(lockFile(record))
    }

    private static func reason(_ error: any Error) -> String {
        if let failure = error as? AtomicFile.Failure { return failure.reason }
        return (error as NSError).localizedDescription
    }
}

/// What ``UploadQueue`` keeps on disk of one upload.
struct UploadRecord: Codable, Sendable {
    struct Part: Codable, Sendable {
        var name: String
        var filename: String?
        var contentType: String?
        /// The copy's file name in the record's folder.
        var file: String
    }

    var id: String
    var method: String
    var path: String
    var headers: [String: String]
    var parts: [Part]
    var attempts: Int
    var lastError: String?
    var createdAt: Date
    var boundary: String
    /// Sent as `Idempotency-Key` with every send of the upload, by any process; `nil` in records
    /// written before uploads had keys.
    var idempotencyKey: String?

    var pending: PendingUpload {
        PendingUpload(id: id, method: HTTPMethod(rawValue: method), path: path, attempts: attempts, lastError: lastError, createdAt: createdAt)
    }
}
