import Baton
import Foundation

/// 1. Signing in without a password: the authorization code flow with PKCE through the demo's
/// authorization page, which stands in for the browser; then the authenticator adds the token to
/// every request of the client.
let loginScenario = Scenario(
    name: "login",
    title: "Sign in through the browser",
    explanation: "The authenticator opens the authorization page with a PKCE challenge, takes the redirect back, checks its state and exchanges the code; every call of the client carries the access token from now on. The app never sees a password."
) { session in
    let flow = try session.authenticator.beginAuthorization(redirectURI: Session.redirectURI)
    session.say("open in the browser: \(flow)")
    let back = try await session.openInBrowser(flow.url)

    // A redirect that did not come from this flow (another state) is refused before anything is sent.
    var forged = URLComponents(url: back, resolvingAgainstBaseURL: false)
    let items = forged?.queryItems ?? []
    forged?.queryItems = items.map { $0.name == "state" ? URLQueryItem(name: "state", value: "forged") : $0 }
    do {
        _ = try await session.authenticator.logIn(completing: flow, redirectedTo: forged?.url ?? back).value
        throw ScenarioFailure(description: "a redirect with another state to be refused")
    } catch let error as AuthenticationError {
        session.say("a forged redirect: \(error)")
    }

    let credentials = try await session.authenticator.logIn(completing: flow, redirectedTo: back).value
    session.say("signed in; the access token expires \(credentials.expiresAt.map { "at \($0)" } ?? "never")")
    try session.expect(session.authenticator.credentials != nil, "the authenticator to hold the credentials")
}
