import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import BatonPromise
import BatonWire

/// What every transport of Baton's does the same way once a transfer is over: how it settles its
/// promise, when it reports the bytes received, and where a download's body goes.
extension Promise where Value == HTTPResponse {
    /// Settles a transport's promise with `result`: on the calling thread, unless the body is
    /// ``URLSessionTransport/parallelDecodingThreshold`` bytes or more, then on a global queue,
    /// so that decoding it holds up no other response. A download whose call was cancelled as it
    /// completed has its file removed: nobody will move it.
    func settleTransfer(_ result: Result<HTTPResponse, URLError>) {
        switch result {
        case .success(let response) where response.body.count >= URLSessionTransport.parallelDecodingThreshold:
            DispatchQueue.global().async { self.fulfil(response) }
        case .success(let response):
            if !settle(.success(response)), let file = response.bodyFile {
                try? FileManager.default.removeItem(at: file)
            }
        case .failure(let error):
            settle(.failure(error))
        }
    }
}

extension TransferOptions {
    /// Whether the bytes received are reported as they arrive rather than once, complete: when
    /// asked for, and for a request with a body, whose bar follows the answer too.
    func reportsEachPiece(sendingBody: Bool) -> Bool {
        tracksDownloadProgress || sendingBody
    }
}

/// The temporary file a download's body is written to.
enum DownloadFile {
    /// A new empty file in the system's temporary folder, made as ``PrivateFile`` makes files
    /// (readable by this user only, from the start, never through a symbolic link), open for
    /// writing; `nil` when it cannot be made.
    static func open() -> (url: URL, handle: FileHandle)? {
        let url = location()
        guard let descriptor = try? PrivateFile.create(url.path) else { return nil }
        return (url, FileHandle(fileDescriptor: descriptor, closeOnDealloc: true))
    }

    /// A new empty file, as ``open()`` makes it, closed: for a body with no bytes.
    static func make() -> URL? {
        guard let (url, handle) = open() else { return nil }
        try? handle.close()
        return url
    }

    /// A new name in the system's temporary folder, for a download's file, not yet made.
    static func location() -> URL {
        FileManager.default.temporaryDirectory.appending(path: "baton-download-\(UUID().uuidString).part")
    }
}
