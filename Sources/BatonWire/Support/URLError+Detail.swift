import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLError {
    /// The key under which Baton's own transport puts what happened, in words, for the
    /// client's error sentence.
    package static let detailKey = "BatonDetail"

    /// An error of `code` saying what happened: its `localizedDescription` too, for code that
    /// catches it from the transport itself.
    package init(_ code: URLError.Code, detail: String) {
        self.init(code, userInfo: [URLError.detailKey: detail, NSLocalizedDescriptionKey: detail])
    }

    /// What happened, in words, when Baton's own transport said.
    package var detail: String? { userInfo[URLError.detailKey] as? String }
}
