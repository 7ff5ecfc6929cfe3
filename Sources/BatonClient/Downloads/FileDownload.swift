import BatonSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import BatonPromise
import BatonWire

extension Client {
    /// Downloads the body of `endpoint`'s response to the file at `destination` (replacing any
    /// file there) and returns `destination`.
    ///
    /// The body is written to a file as it arrives, so a download of any size takes little
    /// memory; ``Configuration/maximumResponseSize`` does not apply to it (it still bounds an
    /// error's response). Status and content type are validated as for ``send(_:)``: an error
    /// response never reaches `destination`. Progress counts the bytes of the file. Cancelling
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
    /// `Want-Repr-Digest`), or the attempt fails and the next starts over (a digest of a
    /// content-coded response names the coded bytes, and is not checked). ``HTTP1Transport``
    /// keeps what arrived of a cut transfer; other transports, only whole responses. With
    /// ``DownloadOptions/keepsPartialFile``, what arrived survives the call, and a later one
    /// goes on from it; one such download to a destination runs at a time in a process (a second
    /// fails at once, as ``APIError/Kind/invalidRequest``, and so does one whose kept file or
    /// record is a symbolic link, which is never followed). Otherwise nothing is left behind,
    /// whatever happens. Every file the download writes is readable by this user only. An endpoint that asks for a `Range` of its own gets what it asks,
    /// written as it comes, and is never resumed. A resource whose validator is a weak `ETag`, or
    /// a `Last-Modified` less than a second before its `Date`, cannot be resumed (RFC 9110
    /// §13.1.5): a retry starts over.
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
        // A kept file has one writer: a second download to the same destination at once fails.
        if kept, !KeptDownloads.claim(destination) {
            let summary = RequestSummary(method: endpoint.method, url: nil, path: endpoint.path.encoded, redaction: context.redaction)
            return Promise(error: APIError.invalidRequest(summary, field: "destination",
                reason: "another download to \(destination.path) that keeps its partial file is running in this process"))
        }
        let file = kept ? DownloadOptions.partialFile(for: destination) : DownloadFile.location()
        let record = kept ? DownloadOptions.record(for: destination) : nil
        // A kept file or record that is a symbolic link is refused before anything is sent; the
        // file is opened without following links anyway, should one appear later.
        if kept {
            do {
                try PrivateFile.refuseSymbolicLink(at: file.path)
                if let record { try PrivateFile.refuseSymbolicLink(at: record.path) }
            } catch {
                KeptDownloads.release(destination)
                let summary = RequestSummary(method: endpoint.method, url: nil, path: endpoint.path.encoded, redaction: context.redaction)
                return Promise(error: APIError.invalidRequest(summary, field: "destination", reason: error.description))
            }
        }
        let resumable = ResumableDownload(file: file, record: record, asksForDigest: options.asksForDigest) { [weak self] reason in
            self?.context.emit(.startedOver(RequestSummary(method: endpoint.method, url: nil, path: endpoint.path.encoded), reason: reason))
        }
        // The endpoint is sent as it is; its successful body goes to the file, which is checked
        // whole (size, digest) and moved to `destination` instead of being decoded. A response
        // a transport kept elsewhere (its own file, or memory) is put into the file first, where
        // its head says.
        let download = CallDestination<URL>(body: .file(resumable), tracksDownloadProgress: true) { response in
            if response.bodyFile != resumable.file { try resumable.adopt(response) }
            try resumable.verify()
            try resumable.move(to: destination)
            return destination
        }
        let call = Call(context: context, endpoint: endpoint, product: .destination(download)).start()
        call.observeSettlement { event in
            guard case .settled(let outcome) = event else { return }
            resumable.end(succeeded: (try? Promise<URL>.result(of: outcome).get()) != nil)
            if kept { KeptDownloads.release(destination) }
        }
        return call
    }
}

/// The destinations of this process's downloads that keep their partial files, running now: two
/// writing one kept file at once would mix their bytes.
enum KeptDownloads {
    private static let running = Locked<Set<String>>([])

    /// Claims `destination`; `false` when a running download holds it.
    static func claim(_ destination: URL) -> Bool {
        running.withLock { $0.insert(destination.standardizedFileURL.path).inserted }
    }

    static func release(_ destination: URL) {
        _ = running.withLock { $0.remove(destination.standardizedFileURL.path) }
    }
}
