import Baton

/// 3. The server expires every token mid-session: the next calls meet 401s, the authenticator
/// refreshes once for all of them, and they carry on.
let expiredTokensScenario = Scenario(
    name: "refresh",
    title: "Tokens expire on the server mid-session",
    explanation: "Five calls meet an expired token at once; exactly one refresh runs while the others wait, then all five are replayed with the new token."
) { session in
    try await session.ensureLoggedIn()
    let before = try await session.stats().tokenRefreshes
    try await session.demo.send(Request<Void>(.post, "_demo/expire-tokens")).value
    session.say("the server expired every access token")

    let orders = try await Promise.all((1...5).map { session.client.send(Request<Order>(.get, "orders/\($0)")) }).value

    let after = try await session.stats().tokenRefreshes
    session.say("\(orders.count) calls succeeded; the server counted \(after - before) refresh")
    try session.expect(orders.count == 5, "all five calls to succeed")
    try session.expect(after - before == 1, "exactly one refresh")
}
