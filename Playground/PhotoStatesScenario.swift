import Baton
import BatonSupport

/// 8. A stream: the server tells how a review's photos are processed, as server-sent events,
/// each handed on as it arrives; and the orders as JSON lines, read in a `for try await` loop,
/// then stopped from a promise-style handler.
let photoStatesScenario = Scenario(
    name: "stream",
    title: "A review's photos processed, as a stream of events",
    explanation: "The server sends each photo's state as it changes (text/event-stream); each event is decoded and shown as it arrives, and the chain goes on when the stream ends. Then the orders, one JSON line each, read in a loop left with `break`, then stopped from a handler."
) { session in
    try await session.ensureLoggedIn()
    let client = session.client
    let review = try await client.send(Reviews.post(facilityID: 3, content: "写真付き", rating: 4)).value
    for index in 0..<2 {
        let photo = try await client.send(Photos.upload(try session.photoFile("processed\(index).jpg", size: 40_000), to: review.id)).value
        session.counted(uploaded: photo.bytes)
    }

    var options = StreamOptions()
    options.eventType = "state"                                  // the closing `done` event is not a state
    let shown = Locked(0)
    let end = try await client.events(PhotoStates.of(review: review.id), options: options) { state in
        shown.withLock { $0 += 1 }
        session.say("photo \(state.photoID): \(state.state) (\(state.progress)%)")
    }
    .success { end in
        session.say("the stream ended after \(end.elements) states (its closing `done` event, not a state, was event \(end.lastEventID))")
        return end
    }
    .value
    try session.expect(end.elements == 6 && shown.value == 6, "three states for each of the two photos")

    var names: [String] = []
    for try await order in client.lines(Request<Order>(.get, "orders.ndjson")) {
        names.append(order.name)
        if names.count == 3 { break }                               // the rest is not read
    }
    session.say("the first orders, one JSON line each: \(names.joined(separator: ", "))")
    try session.expect(names.count == 3, "three orders read from the stream")

    // The same stop from a promise-style handler: it takes the stream's control too.
    let read = Locked<[String]>([])
    let stopped = try await client.lines(Request<Order>(.get, "orders.ndjson")) { order, stream in
        let count = read.withLock { read in
            read.append(order.name)
            return read.count
        }
        if count == 2 { stream.stop() }                             // the promise fulfils; nothing more is read
    }.value
    session.say("stopped from its handler after \(stopped.elements) orders: \(read.value.joined(separator: ", "))")
    try session.expect(stopped.wasStopped && stopped.elements == 2, "the handler's stop to end the stream after two orders")
}
