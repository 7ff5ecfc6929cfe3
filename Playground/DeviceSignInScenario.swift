import Baton

/// Signing in a TV: the device grant shows a code, polls while the person approves it on their
/// phone, then signs in. The person is played by a post to the demo's verification page.
let deviceSignInScenario = Scenario(
    name: "device",
    title: "Sign in a TV with a code",
    explanation: "The authenticator asks for a device code and polls at the server's interval (5 s) while the person approves it on another device; nobody types a password on the TV."
) { session in
    let device = try await session.authenticator.beginDeviceAuthorization().value
    session.say("on your phone, open \(device.verificationURI) and enter \(device.userCode)")
    let signingIn = session.authenticator.logIn(completing: device)
    let approval = RequestBody.form([("user_code", device.userCode), ("decision", "approve")])
    try await session.demo.send(Request<Void>(.post, "device", body: approval)).value
    session.say("the person approved it on their phone")
    _ = try await signingIn.value
    let polls = try await session.stats().devicePolls
    session.say("signed in after \(polls) poll\(polls == 1 ? "" : "s"), every \(device.interval)")
    try session.expect(session.authenticator.credentials != nil, "the TV to be signed in")

    try await session.authenticator.logOut().value
    let revoked = try await session.stats().tokensRevoked
    session.say("logged out; the server revoked \(revoked) token")
    try session.expect(revoked >= 1, "logging out to revoke the refresh token")
    _ = try await session.signInThroughTheBrowser()
}
