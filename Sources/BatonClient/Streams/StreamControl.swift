import BatonSupport

/// What a stream's handler is handed with each element: the way to stop the stream from inside
/// the handler, once it has seen what it came for.
///
/// ```swift
/// client.events(Request<PhotoState>(.get, "reviews/3/photos/states")) { state, stream in
///     print(state)
///     if state.progress == 100 { stream.stop() }
/// }
/// .success { end in print("stopped after \(end.elements) states") }
/// ```
///
/// In an `AsyncSequence` loop over ``Client/events(_:options:)``, `break` does the same.
public struct StreamControl: Sendable {
    /// Raised by ``stop()``; the stream's reader looks at it after each element.
    let stopRequest = Locked(false)

    init() {}

    /// Stops the stream once the handler returns: no further element is handed on, the
    /// connection is closed, nothing reconnects, and the stream's promise fulfils with a
    /// ``StreamEnd`` whose ``StreamEnd/wasStopped`` is `true`, so the chain goes on from there
    /// (a cancellation, by contrast, rejects it). Calling it again, or after the stream ended,
    /// does nothing.
    public func stop() {
        stopRequest.withLock { $0 = true }
    }

    /// Whether ``stop()`` was called.
    var isStopped: Bool { stopRequest.withLock { $0 } }
}
