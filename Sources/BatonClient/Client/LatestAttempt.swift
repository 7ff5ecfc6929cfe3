import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import BatonPromise

/// What a ``Call`` remembers of its latest attempt. Outside `Call` so that it is not generic:
/// a type nested in a generic class has its metadata looked up at run time on every use.
struct LatestAttempt {
    var number = 0
    /// The progress reported last.
    var progress: PromiseProgress?
    var retries: [RetryCause: Int] = [:]
    var request: URLRequest?
    var response: HTTPResponse?
    /// The call's moments, for its timings; `nil` when nobody hears them (no monitors).
    var timings: TimingLog?
}
