import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import BatonPromise
import BatonWire

/// How every transport of Baton's settles its promise once a transfer is over.
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
