import Dispatch
import BatonPromise

extension Client {
    /// Sends `endpoint` like ``send(_:)``, and fulfils with its decoded value together with the
    /// response it came from (status, headers): see ``Answer``.
    ///
    /// With an `offline` fallback, a call that fails on the network (an ``APIError`` of kind
    /// ``APIError/Kind/transport``: no connection, a timeout, a dropped connection), after its
    /// retries, answers from the client's ``Configuration/store`` instead, marked as stored
    /// (``Answer/isFromStore``), and monitors receive an ``ClientEvent/Kind/answeredFromStore``
    /// event. A server's error answer (a 404, a 500) is not a network failure: it fails the call
    /// as usual. When the store has nothing, the call fails with the network's error.
    ///
    /// ```swift
    /// client.answer(for: Request<Book>(.get, "books/1"), offline: .stored(id: 1))
    ///     .success { answer in show(answer.value, stale: answer.isFromStore) }
    /// ```
    public func answer<E: Endpoint>(for endpoint: E, offline: OfflineFallback<E.Response> = .none) -> Promise<Answer<E.Response>> {
        let call = Call(context: context, endpoint: endpoint) { value, response in Answer(value: value, response: response) }.start()
        guard let read = offline.read, let store = configuration.store else { return call }
        return call.recover { error, isCancelled -> Promise<Answer<E.Response>> in
            guard !isCancelled, let failure = error as? APIError, failure.kind == .transport else { throw error }
            // Read off the thread that delivered the failure: a store may touch the disk.
            return Promise { _, fulfill, reject, _ in
                DispatchQueue.global().async {
                    guard let value = try? read(store) else { return reject(error) }
                    self.context.emit(.answeredFromStore(failure.request, error: error))
                    fulfill(Answer(stored: value, networkError: error))
                }
            }
        }
    }
}
