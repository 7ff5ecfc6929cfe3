import Foundation
import BatonPromise

extension Client {
    /// Sends `endpoint`, whose response is a stream of server-sent events (`text/event-stream`),
    /// and hands each event to `each` as it arrives, decoded as the endpoint's response type:
    /// the event itself for ``ServerSentEvent``, its data for `String`, its data as JSON
    /// otherwise. The promise fulfils with the ``StreamEnd`` when the server ends the stream,
    /// so a chain goes on from there.
    ///
    /// ```swift
    /// struct PhotoState: Decodable, Sendable { var photoID: Int; var state: String; var progress: Int }
    ///
    /// client.events(Request<PhotoState>(.get, "reviews/3/photos/states")) { state in
    ///     print("photo \(state.photoID): \(state.state) \(state.progress)%")
    /// }
    /// .success { end in print("\(end.elements) states") }
    /// .failure { error, _ in print(error) }
    /// ```
    ///
    /// The response is validated before any element: a status the endpoint does not accept, or a
    /// media type other than `text/event-stream`, fails the call as ``send(_:)`` would, with the
    /// start of the body; an expired token is refreshed and the request sent again. Once the
    /// stream is under way, a dropped connection fails it, or sends it again with
    /// `Last-Event-ID` when ``StreamOptions/reconnects``. `each` runs one element at a time, in
    /// order: on the client's delivery queue if it has one, else where the elements arrive (the
    /// transport's thread, as a small response's handlers do); over ``HTTP1Transport``, a handler
    /// slower than the server holds the server back. Cancelling, pausing and resuming
    /// the promise reach the request. No element is larger than
    /// ``StreamOptions/maximumElementSize``, and the client's deadline does not apply.
    ///
    /// To stop the stream from inside the handler, take the ``StreamControl`` too
    /// (`{ state, stream in … stream.stop() }`): the promise then fulfils. In an `AsyncSequence`
    /// loop over ``events(_:options:)``, `break` stops it.
    @discardableResult
    public func events<E: Endpoint>(
        _ endpoint: E, options: StreamOptions = StreamOptions(), each: @escaping @Sendable (E.Response) -> Void
    ) -> Promise<StreamEnd> where E.Response: Decodable & Sendable {
        StreamCall(context: context, endpoint: endpoint, format: .serverSentEvents, options: options, handler: each).start()
    }

    /// Sends `endpoint`, whose response is a stream of server-sent events, and hands each event
    /// to `each` with the ``StreamControl`` that stops the stream from inside the handler: as
    /// ``events(_:options:each:)-(_,_,(E.Response)->Void)``, which it is in every other way.
    ///
    /// ```swift
    /// client.events(Request<PhotoState>(.get, "reviews/3/photos/states")) { state, stream in
    ///     print(state)
    ///     if state.progress == 100 { stream.stop() }   // the promise fulfils; `break` in a loop
    /// }
    /// .success { end in print("\(end.elements) states, stopped: \(end.wasStopped)") }
    /// ```
    @discardableResult
    public func events<E: Endpoint>(
        _ endpoint: E, options: StreamOptions = StreamOptions(), each: @escaping @Sendable (E.Response, StreamControl) -> Void
    ) -> Promise<StreamEnd> where E.Response: Decodable & Sendable {
        StreamCall(context: context, endpoint: endpoint, format: .serverSentEvents, options: options, stoppable: each).start()
    }

    /// The server-sent events of `endpoint`, as an `AsyncSequence`: see
    /// ``events(_:options:each:)-(_,_,(E.Response)->Void)`` for how they are decoded and validated, and
    /// ``StreamedElements`` for how the loop reaches the request.
    public func events<E: Endpoint>(_ endpoint: E, options: StreamOptions = StreamOptions()) -> StreamedElements<E.Response>
    where E.Response: Decodable & Sendable {
        StreamedElements(context: context, endpoint: endpoint, format: .serverSentEvents, options: options)
    }

    /// Sends `endpoint`, whose response is JSON lines (`application/x-ndjson`, `application/jsonl`),
    /// and hands each line to `each` as it arrives, decoded as the endpoint's response type.
    /// Blank lines are skipped; a line that does not decode fails the stream with its number (or
    /// is passed over, with ``StreamOptions/skipsUndecodableElements``). Otherwise as
    /// ``events(_:options:each:)-(_,_,(E.Response)->Void)``.
    ///
    /// ```swift
    /// client.lines(Request<Order>(.get, "orders.ndjson")) { order in export(order) }
    ///     .success { end in print("\(end.elements) orders exported") }
    /// ```
    @discardableResult
    public func lines<E: Endpoint>(
        _ endpoint: E, options: StreamOptions = StreamOptions(), each: @escaping @Sendable (E.Response) -> Void
    ) -> Promise<StreamEnd> where E.Response: Decodable & Sendable {
        StreamCall(context: context, endpoint: endpoint, format: .jsonLines, options: options, handler: each).start()
    }

    /// Sends `endpoint`, whose response is JSON lines, and hands each line to `each` with the
    /// ``StreamControl`` that stops the stream from inside the handler: as
    /// ``lines(_:options:each:)-(_,_,(E.Response)->Void)``, which it is in every other way.
    @discardableResult
    public func lines<E: Endpoint>(
        _ endpoint: E, options: StreamOptions = StreamOptions(), each: @escaping @Sendable (E.Response, StreamControl) -> Void
    ) -> Promise<StreamEnd> where E.Response: Decodable & Sendable {
        StreamCall(context: context, endpoint: endpoint, format: .jsonLines, options: options, stoppable: each).start()
    }

    /// The JSON lines of `endpoint`, as an `AsyncSequence`: see ``lines(_:options:each:)-(_,_,(E.Response)->Void)``.
    public func lines<E: Endpoint>(_ endpoint: E, options: StreamOptions = StreamOptions()) -> StreamedElements<E.Response>
    where E.Response: Decodable & Sendable {
        StreamedElements(context: context, endpoint: endpoint, format: .jsonLines, options: options)
    }
}
