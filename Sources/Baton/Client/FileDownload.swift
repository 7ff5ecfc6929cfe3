import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An endpoint whose successful answer is written to a file rather than decoded: what
/// ``Client/download(_:to:options:)`` sends. Everything but the response is the wrapped endpoint's.
struct FileDownload<Base: Endpoint>: Endpoint {
    typealias Response = URL

    let base: Base
    let destination: URL
    /// The file the answer fills, over as many attempts as it takes.
    let resumable: ResumableDownload

    var method: HTTPMethod { base.method }
    var path: EndpointPath { base.path }
    var query: [URLQueryItem] { base.query }
    var headers: [String: String] { base.headers }
    var body: RequestBody { base.body }
    var idempotencyKey: String? { base.idempotencyKey }
    var acceptableStatusCodes: Range<Int> { base.acceptableStatusCodes }
    var acceptableContentTypes: [String] { base.acceptableContentTypes }
    var tracksDownloadProgress: Bool { true }

    /// Checks the whole file (its size, its digest), then moves it to `destination`, replacing
    /// any file there. An answer a transport kept elsewhere (one that does not write into the
    /// resumable file: a user's, or one keeping bodies in memory) is put into the file first,
    /// where its head says.
    func decode(_ response: HTTPResponse, with decoder: JSONDecoder) throws -> URL {
        if response.bodyFile != resumable.file { try adopt(response) }
        try resumable.verify()
        do {
            // rename(2) replaces the destination in one step, when both are on one file system;
            // across file systems the file is copied over instead.
            if rename(resumable.file.path, destination.path) != 0 {
                let files = FileManager.default
                if files.fileExists(atPath: destination.path) { try files.removeItem(at: destination) }
                try files.moveItem(at: resumable.file, to: destination)
            }
            return destination
        } catch {
            throw URLError(.cannotMoveFile, userInfo: [NSLocalizedDescriptionKey: "the download could not be moved to \(destination.path): \(error.localizedDescription)"])
        }
    }

    /// Puts the body of `response`, from its own file or from memory, into the resumable file.
    private func adopt(_ response: HTTPResponse) throws {
        let placement = try resumable.accept(status: response.statusCode, headers: { response.value(forHeader: $0) })
        // A whole answer in a file of its own becomes the download's file, in one step.
        if placement.offset == 0, let file = response.bodyFile, rename(file.path, resumable.file.path) == 0 { return }
        let output = try FileHandle(forWritingTo: resumable.file)
        defer { try? output.close() }
        try output.seek(toOffset: UInt64(placement.offset))
        guard let file = response.bodyFile else { return try output.write(contentsOf: response.body) }
        let input = try FileHandle(forReadingFrom: file)
        defer { try? input.close() }
        while let piece = try input.read(upToCount: 1 << 20), !piece.isEmpty { try output.write(contentsOf: piece) }
    }
}

/// Marks the endpoints whose successful bodies go to a file, and gives the file.
protocol DownloadsToFile {
    var resumable: ResumableDownload { get }
}

extension FileDownload: DownloadsToFile {}

extension Client {
    /// Downloads the body of `endpoint`'s response to the file at `destination` (replacing any
    /// file there) and returns `destination`.
    ///
    /// The body is written to a file as it arrives, so a download of any size takes little
    /// memory; ``Configuration/maximumResponseSize`` does not apply to it (it still bounds an
    /// error's answer). Status and content type are validated as for ``send(_:)``: an error
    /// answer never reaches `destination`. Progress counts the bytes of the file. Cancelling
    /// stops the transfer.
    ///
    /// **Resuming.** A transfer cut short is taken up where it stopped when the retry policy
    /// sends it again: the next attempt asks for the rest (`Range`), only if the representation
    /// is still the one the bytes came from (`If-Range` with its strong `ETag`, else its
    /// `Last-Modified`), and its progress goes on from the bytes already there. A `206` must
    /// start where the file ends; a `200` (the file changed, or the server does not do ranges)
    /// starts over, and monitors hear ``ClientEvent/Kind/startedOver`` with why, as the progress
    /// goes back. The file is whole when the call fulfils: its size is the representation's
    /// length, and its SHA-256 the one the server names (`Repr-Digest`, which Baton asks for with
    /// `Want-Repr-Digest`), or the attempt fails and the next starts over. ``HTTP1Transport``
    /// keeps what arrived of a cut transfer; other transports, only whole answers. With
    /// ``DownloadOptions/keepsPartialFile``, what arrived survives the call, and a later one
    /// goes on from it. Otherwise nothing is left behind, whatever happens.
    ///
    /// ```swift
    /// var options = DownloadOptions()
    /// options.keepsPartialFile = true   // a restart goes on where this one stopped
    /// client.download(Request<Data>(.get, "photos/\(id)"), to: cache.appending(path: "\(id).jpg"), options: options)
    ///     .progress { bar.update($0) }
    ///     .success { file in show(file) }
    /// ```
    public func download<E: Endpoint>(_ endpoint: E, to destination: URL, options: DownloadOptions = DownloadOptions()) -> Promise<URL> {
        let kept = options.keepsPartialFile
        let file = kept ? DownloadOptions.partialFile(for: destination) : DownloadFile.location()
        let record = kept ? DownloadOptions.record(for: destination) : nil
        let resumable = ResumableDownload(file: file, record: record, asksForDigest: options.asksForDigest) { [weak self] reason in
            self?.emit(.startedOver(RequestSummary(method: endpoint.method, url: nil, path: endpoint.path.encoded), reason: reason))
        }
        let call = send(FileDownload(base: endpoint, destination: destination, resumable: resumable))
        call.observeSettlement { event in
            guard case .settled(let outcome) = event else { return }
            resumable.end(succeeded: (try? Promise<URL>.result(of: outcome).get()) != nil)
        }
        return call
    }
}
