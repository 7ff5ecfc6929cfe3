import Baton
import BatonSupport
import DemoServer
import Foundation

/// One scenario of the playground: a name to run it by, a heading, a short explanation, and the
/// code, which throws ``ScenarioFailure`` when Baton does not behave as the scenario says.
struct Scenario: Sendable {
    let name: String
    let title: String
    let explanation: String
    let run: @Sendable (Session) async throws -> Void
}

/// A scenario saw something other than what it says Baton does.
struct ScenarioFailure: Error, CustomStringConvertible {
    let description: String
}

/// What the scenarios share: the API's client and its authenticator, a folder for files, the
/// review they attach photos to, and the figures of the closing summary.
final class Session: Sendable {
    let baseURL: URL
    let authenticator: Authenticator
    let client: Client
    /// A client of the demo API's own `/_demo` routes (statistics, expiring tokens).
    let demo: Client
    let folder: URL
    private let state = Locked((requests: 0, bytesUploaded: Int64(0), review: Review?.none, photoURL: String?.none))
    /// Token refreshes, as the authenticator's events tell them.
    private let refreshTally = Tally()

    /// The transport of every client: Baton's own trusting DemoServer's test root, with `--tls`;
    /// `nil` (the default transport) otherwise.
    let transport: (any Transport)?
    /// Whether servers the scenarios start serve `https`.
    let overTLS: Bool

    init(baseURL: URL, trustsTestRoot: Bool) throws {
        self.baseURL = baseURL
        overTLS = trustsTestRoot
        if trustsTestRoot {
            var settings = HTTP1Transport.Configuration()
            try settings.tls.trustRoots(pem: DemoServer.TLS.loopbackRootCertificatePEM)
            transport = HTTP1Transport(configuration: settings)
        } else {
            transport = nil
        }
        let transport = self.transport
        folder = FileManager.default.temporaryDirectory.appending(path: "baton-playground-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let counter = RequestCounter()
        let refreshes = refreshTally
        authenticator = try Authenticator(tokenURL: baseURL.appending(path: "tokens")) { configuration in
            configuration.fields = TokenResponseFields(accessToken: "token")   // the demo API's name for it
            // The demo's authorization server: its page, its device grant and revocation.
            configuration.authorizationURL = baseURL.appending(path: "authorize")
            configuration.deviceAuthorizationURL = baseURL.appending(path: "device_authorization")
            configuration.revocationURL = baseURL.appending(path: "revoke")
            configuration.clientAuthentication = .formBody(clientID: "baton-playground")
            configuration.transport = transport
            configuration.onEvent = { event in
                Console.shared.line("   event: \(event.kind)")
                if event.kind == .refreshed { refreshes.add(1) }
            }
        }
        let authenticator = self.authenticator
        client = try Client(baseURL: baseURL, transport: transport) { configuration in
            configuration.interceptors = [authenticator]
            configuration.monitors = [counter]
        }
        demo = try Client(baseURL: baseURL, transport: transport) { $0.retryPolicy = nil }
        counter.session = self
    }

    /// A DemoServer of a scenario's own, over https with `--tls`.
    func startServer() throws -> DemoServer {
        try DemoServer.start(configuration: .init(tls: overTLS ? .loopback : nil))
    }

    func finish() {
        try? FileManager.default.removeItem(at: folder)
    }

    // MARK: Saying and checking

    func say(_ text: String) {
        Console.shared.line("   " + text)
    }

    /// Fails the scenario unless `condition` holds.
    func expect(_ condition: Bool, _ what: String) throws {
        guard condition else { throw ScenarioFailure(description: "expected \(what)") }
    }

    // MARK: Shared steps

    /// Logs in unless a session is open (a scenario run on its own).
    func ensureLoggedIn() async throws {
        if authenticator.credentials == nil { _ = try await signInThroughTheBrowser() }
    }

    /// The authorization code flow, with DemoServer's page standing in for the browser and the person.
    func signInThroughTheBrowser() async throws -> Credentials {
        let flow = try authenticator.beginAuthorization(redirectURI: Self.redirectURI)
        return try await authenticator.logIn(completing: flow, redirectedTo: openInBrowser(flow.url)).value
    }

    /// Where the demo's authorization page sends the browser back.
    static let redirectURI = URL(string: "baton-playground:/signed-in")!

    /// What a browser does with the demo's authorization page, which approves at once as the demo
    /// user: loads it, and returns the address it redirects to, which an app would receive.
    func openInBrowser(_ page: URL) async throws -> URL {
        let browser = try Client(baseURL: baseURL, transport: transport) { $0.redirects = RedirectPolicy(follows: false) }
        let query = URLComponents(url: page, resolvingAgainstBaseURL: false)?.queryItems ?? []
        var request = Request<HTTPResponse>(.get, "authorize", query: query)
        request.acceptableStatusCodes = 302..<303
        let response = try await browser.send(request).value
        guard let location = response.value(forHeader: "Location").flatMap(URL.init(string:)) else {
            throw ScenarioFailure(description: "the authorization page to redirect back")
        }
        return location
    }

    /// The review the photos go to, posted the first time it is needed.
    func review() async throws -> Review {
        if let review = state.withLock({ $0.review }) { return review }
        try await ensureLoggedIn()
        let review = try await client.send(Reviews.post(facilityID: 1, content: "景色が最高でした", rating: 5)).value
        state.withLock { $0.review = review }
        return review
    }

    /// A file of `size` bytes of a photo-like pattern.
    func photoFile(_ name: String, size: Int) throws -> URL {
        let file = folder.appending(path: name)
        var generator = SystemRandomNumberGenerator()
        var chunk = Data(count: min(size, 1 << 20))
        chunk.withUnsafeMutableBytes { bytes in
            for index in stride(from: 0, to: bytes.count - 7, by: 8) { bytes.storeBytes(of: generator.next() as UInt64, toByteOffset: index, as: UInt64.self) }
        }
        var data = Data(capacity: size)
        while data.count < size { data.append(chunk.prefix(size - data.count)) }
        try data.write(to: file)
        return file
    }

    /// The demo API's counters.
    func stats() async throws -> DemoServer.Stats {
        try await demo.send(Request<DemoServer.Stats>(.get, "_demo/stats")).value
    }

    // MARK: Figures

    func counted(request: Void) { state.withLock { $0.requests += 1 } }
    func counted(uploaded bytes: Int) { state.withLock { $0.bytesUploaded += Int64(bytes) } }
    func remember(photoURL: String) { state.withLock { $0.photoURL = photoURL } }
    var photoURL: String? { state.withLock { $0.photoURL } }
    var figures: (requests: Int, refreshes: Int, bytesUploaded: Int64) {
        let (requests, bytes) = state.withLock { ($0.requests, $0.bytesUploaded) }
        return (requests, refreshTally.value, bytes)
    }
}

/// Counts the requests that went on the wire, for the summary.
// `session` is set once, right after the client is made, before any request.
final class RequestCounter: ClientMonitor, @unchecked Sendable {
    weak var session: Session?

    func receive(_ event: ClientEvent) {
        if event.kind == .attemptStarted { session?.counted(request: ()) }
    }
}

/// A count that many threads add to.
final class Tally: Sendable {
    private let count = Locked(0)

    func add(_ amount: Int) { count.withLock { $0 += amount } }
    var value: Int { count.value }
}
