import Dispatch
import BatonPromise

extension Client {
    /// Sends `endpoint` like ``send(_:)``, and fulfils with its decoded value together with the
    /// response it came from (status, headers): see ``Fetched``.
    ///
    /// With an `offline` fallback, a call that fails on the network (an ``APIError`` of kind
    /// ``APIError/Kind/transport``: no connection, a timeout, a dropped connection), after its
    /// retries, answers from the client's ``Configuration/store`` instead, marked as stored
    /// (``Fetched/isFromStore``), and monitors receive an ``ClientEvent/Kind/servedFromStore``
    /// event. A server's error response (a 404, a 500) is not a network failure: it fails the call
    /// as usual. When the store has nothing, the call fails with the network's error.
    ///
    /// ```swift
    /// client.fetch(Request<Book>(.get, "books/1"), offline: .stored(id: 1))
    ///     .success { fetched in show(fetched.value, stale: fetched.isFromStore) }
    /// ```
    public func fetch<E: Endpoint>(_ endpoint: E, offline: OfflineFallback<E.Response> = .none) -> Promise<Fetched<E.Response>> {
        let call = Call(context: context, endpoint: endpoint) { value, response in Fetched(value: value, response: response) }.start()
        guard let read = offline.read, let store = configuration.store else { return call }
        return call.recover { error, isCancelled -> Promise<Fetched<E.Response>> in
            guard !isCancelled, let failure = error as? APIError, failure.kind == .transport else { throw error }
            // Read off the thread that delivered the failure: a store may touch the disk.
            return Promise { _, fulfill, reject, _ in
                DispatchQueue.global().async {
                    guard let value = try? read(store) else { return reject(error) }
                    self.context.emit(.servedFromStore(failure.request, error: error))
                    fulfill(Fetched(stored: value, networkError: error))
                }
            }
        }
    }
}
