import Foundation

/// The elements of a streamed call, as an `AsyncSequence`: what ``Client/events(_:options:)``
/// and ``Client/lines(_:options:)`` return.
///
/// ```swift
/// for try await state in client.events(Request<PhotoState>(.get, "reviews/3/photos/states")) {
///     print(state)
///     if state.progress == 100 { break }   // cancels the request
/// }
/// ```
///
/// The request is sent when a loop begins; each loop over the sequence sends it afresh.
/// Breaking out of the loop, or cancelling the task it runs in, cancels the request (at the top
/// level of `main.swift`, whose variables live as long as the program, loop in a function). An element
/// is taken off the connection only when the loop asks for it; over ``HTTP1Transport`` a loop
/// slower than the server holds the server back. The loop throws the stream's failure as an
/// ``APIError``, as ``Client/send(_:)`` would.
public struct StreamedElements<Element: Decodable & Sendable>: AsyncSequence, Sendable {
    private let start: @Sendable () -> Source

    init<Base: Endpoint>(context: CallContext, endpoint: Base, format: StreamFormat, options: StreamOptions) where Base.Response == Element {
        start = {
            let call = StreamCall(context: context, endpoint: endpoint, format: format, options: options)
            call.startPulling()
            return Source(next: { call.nextElement($0) }, cancel: { call.cancel() })
        }
    }

    /// Starts the request.
    public func makeAsyncIterator() -> Iterator {
        Iterator(source: start())
    }

    /// Pulls the stream's elements one at a time.
    public struct Iterator: AsyncIteratorProtocol {
        let source: Source

        /// The next element, `nil` at the end of the stream.
        public mutating func next() async throws -> Element? {
            let source = self.source
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    source.next { continuation.resume(with: $0) }
                }
            } onCancel: {
                source.cancel()
            }
        }
    }

    /// The stream call behind an iterator; cancels the request when the last iterator holding it goes.
    final class Source: Sendable {
        let next: @Sendable (@escaping @Sendable (Result<Element?, any Error>) -> Void) -> Void
        let cancel: @Sendable () -> Void

        init(next: @escaping @Sendable (@escaping @Sendable (Result<Element?, any Error>) -> Void) -> Void, cancel: @escaping @Sendable () -> Void) {
            self.next = next
            self.cancel = cancel
        }

        deinit {
            cancel()
        }
    }
}
