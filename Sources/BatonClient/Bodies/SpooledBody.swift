import BatonSupport
import Dispatch
import Foundation
import BatonPromise

/// A multipart form written to a temporary file for one call: the file is removed once both the
/// writing and the call have ended, whichever ends last and however each ended (success,
/// failure, cancellation), so no temporary file outlives its call.
final class SpooledBody: Sendable {
    /// The temporary file, in the system's temporary folder.
    let url = FileManager.default.temporaryDirectory.appending(path: "baton-upload-\(UUID().uuidString).multipart")
    private let ended = Locked((writing: false, call: false))

    /// Writes `form` to the file on a global queue, off the caller's thread; the promise fulfils
    /// with the file as a transport body, or rejects with an ``APIError`` of kind
    /// ``APIError/Kind/invalidRequest`` naming what could not be read or written.
    func write(_ form: MultipartForm, for request: RequestSummary) -> Promise<TransportBody> {
        Promise { _, fulfill, reject, _ in
            DispatchQueue.global().async { [self] in
                let failure: MultipartEncoder.Failure?
                do throws(MultipartEncoder.Failure) {
                    try MultipartEncoder(form: form).write(to: url)
                    failure = nil
                } catch {
                    failure = error
                }
                // Ended before the call can go on: a call that then ends at once (a stub's
                // response) finds both parts over and removes the file before its caller resumes.
                end(\.writing)
                if let failure {
                    reject(APIError.invalidRequest(request, field: "body", reason: failure.reason))
                } else {
                    fulfill(.file(url))
                }
            }
        }
    }

    /// Writes `form` to a new temporary file for `call`, which waits for the writing meanwhile
    /// (a cancel reaches it), and hands `ready` the file as a body, or the error. The file is
    /// removed once both the writing and the call have ended.
    static func write<Output>(
        _ form: MultipartForm, summary: RequestSummary, for call: Promise<Output>,
        ready: @escaping @Sendable (Result<TransportBody, any Error>) -> Void
    ) {
        let spooled = SpooledBody()
        call.observeSettlement { event in
            if case .settled = event { spooled.callEnded() }
        }
        let writing = spooled.write(form, for: summary)
        call.wait(for: writing)
        writing.subscribe { event in
            if case .settled(let settled) = event { ready(Promise<TransportBody>.result(of: settled)) }
        }
    }

    /// The call has settled.
    func callEnded() {
        end(\.call)
    }

    private func end(_ part: WritableKeyPath<(writing: Bool, call: Bool), Bool>) {
        let both = ended.withLock { ended in
            ended[keyPath: part] = true
            return ended.writing && ended.call
        }
        if both { try? FileManager.default.removeItem(at: url) }
    }
}
