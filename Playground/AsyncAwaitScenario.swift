import Baton

/// 7. The same endpoints from Swift concurrency: every promise can be awaited, and cancelling the
/// awaiting task cancels the request.
let asyncAwaitScenario = Scenario(
    name: "async",
    title: "async/await",
    explanation: "The same endpoints awaited: `try await client.send(...).value`; the chain reads top to bottom, and errors are thrown."
) { session in
    try await session.ensureLoggedIn()
    let orders = try await session.client.send(FindOrders(name: "山田")).value
    let review = try await session.client.send(Reviews.post(facilityID: 2, content: "静かで良い", rating: 4)).value
    session.say("awaited \(orders.count) orders, then posted review \(review.id)")
    do {
        _ = try await session.client.send(Request<Order>(.get, "orders/999")).value
        throw ScenarioFailure(description: "order 999 not to exist")
    } catch let error as APIError {
        session.say("a missing order throws: \(error.localizedDescription)")
        try session.expect(error.statusCode == 404, "a 404 for order 999")
    }
}
