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
/// ``Client/download(_:to:)`` sends. Everything but the response is the wrapped endpoint's.
struct FileDownload<Base: Endpoint>: Endpoint {
    typealias Response = URL

    let base: Base
    let destination: URL

    var method: HTTPMethod { base.method }
    var path: EndpointPath { base.path }
    var query: [URLQueryItem] { base.query }
    var headers: [String: String] { base.headers }
    var body: RequestBody { base.body }
    var acceptableStatusCodes: Range<Int> { base.acceptableStatusCodes }
    var acceptableContentTypes: [String] { base.acceptableContentTypes }
    var tracksDownloadProgress: Bool { true }

    /// Moves the downloaded file to `destination`, replacing any file there. A response without a
    /// file (an empty answer, or a transport that keeps bodies in memory) is written there.
    func decode(_ response: HTTPResponse, with decoder: JSONDecoder) throws -> URL {
        let files = FileManager.default
        do {
            guard let file = response.bodyFile else {
                try response.body.write(to: destination, options: .atomic)
                return destination
            }
            // rename(2) replaces the destination in one step, when both are on one file system;
            // across file systems the file is copied over instead.
            if rename(file.path, destination.path) != 0 {
                if files.fileExists(atPath: destination.path) { try files.removeItem(at: destination) }
                try files.moveItem(at: file, to: destination)
            }
            return destination
        } catch {
            throw URLError(.cannotMoveFile, userInfo: [NSLocalizedDescriptionKey: "the download could not be moved to \(destination.path): \(error.localizedDescription)"])
        }
    }
}

/// Marks the endpoints whose successful bodies go to a file.
protocol DownloadsToFile {}

extension FileDownload: DownloadsToFile {}

extension Client {
    /// Downloads the body of `endpoint`'s response to the file at `destination` (replacing any
    /// file there) and returns `destination`.
    ///
    /// The body is written to a temporary file as it arrives, so a download of any size takes
    /// little memory; ``Configuration/maximumResponseSize`` does not apply to it (it still bounds
    /// an error's answer). Status and content type are validated as for ``send(_:)``: an error
    /// answer never reaches `destination`. Progress counts the bytes received. Cancelling stops
    /// the transfer; the temporary file is removed whatever happens.
    ///
    /// ```swift
    /// client.download(Request<Data>(.get, "photos/\(id)"), to: cache.appending(path: "\(id).jpg"))
    ///     .progress { bar.update($0) }
    ///     .success { file in show(file) }
    /// ```
    public func download<E: Endpoint>(_ endpoint: E, to destination: URL) -> Promise<URL> {
        send(FileDownload(base: endpoint, destination: destination))
    }
}
