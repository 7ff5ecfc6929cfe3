import Baton

/// 1. Login with the password grant: the authenticator keeps the tokens and adds them to every
/// request of the client from then on.
let loginScenario = Scenario(
    name: "login",
    title: "Log in",
    explanation: "The authenticator logs in with the password grant and keeps the tokens; every call of the client carries the access token from now on."
) { session in
    let credentials = try await session.authenticator.logIn(username: "demo", password: "demo").value
    session.say("logged in; the access token expires \(credentials.expiresAt.map { "at \($0)" } ?? "never")")
    try session.expect(session.authenticator.credentials != nil, "the authenticator to hold the credentials")

    // A wrong password is an error that says so, not a bare 400.
    do {
        _ = try await session.authenticator.logIn(username: "demo", password: "wrong").value
        throw ScenarioFailure(description: "a wrong password to be refused")
    } catch let error as AuthenticationError {
        session.say("a wrong password: \(error)")
    }
    try session.expect(session.authenticator.credentials != nil, "the refused login to leave the open session as it was")
}
