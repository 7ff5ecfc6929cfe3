import Foundation
import BatonPromise
import BatonClient

/// An endpoint of the authorization server: the token endpoint, the device authorization and
/// revocation endpoints when they are set, which take form posts, and the metadata address, read
/// once by discovery.
///
/// Each has a client of its own, apart from the API's: no interceptors, no retries, and no
/// redirects, since a redirected post would carry a password, a code or a token elsewhere.
struct FormEndpoint: Sendable {
    /// A form field, in the order it is sent.
    typealias Field = (name: String, value: String)

    let client: Client
    let path: EndpointPath
    let authentication: ClientAuthentication

    /// An endpoint at `url`, with the timeouts, transport and client authentication of `configuration`.
    ///
    /// - Throws: `ConfigurationError` when `url` cannot work (no scheme, a scheme other than http
    ///   or https, no host).
    init(url: URL, configuration: Authenticator.Configuration, maximumResponseSize: Int = 64 << 10) throws(ConfigurationError) {
        let (base, path) = Self.split(url)
        self.path = path
        authentication = configuration.clientAuthentication
        client = try Client(baseURL: base, transport: configuration.transport) { client in
            client.retryPolicy = nil
            // A redirected token request would carry a password or refresh token elsewhere.
            client.redirects = RedirectPolicy(follows: false)
            client.deadline = configuration.refreshTimeout
            client.timeout = configuration.refreshTimeout
            // A token response is a few hundred bytes; a server sending more is not a token endpoint.
            client.maximumResponseSize = maximumResponseSize
        }
    }

    /// Posts `fields` and the client authentication, asking for JSON.
    func post(_ fields: [Field]) -> Promise<HTTPResponse> {
        var headers = authentication.headers
        headers["Accept"] = "application/json"
        return client.send(AuthorizationServerRequest(method: .post, path: path, headers: headers, body: .form(fields + authentication.formFields)))
    }

    /// Reads the endpoint with a `GET`.
    func read() -> Promise<HTTPResponse> {
        client.send(AuthorizationServerRequest(method: .get, path: path, headers: ["Accept": "application/json"]))
    }

    /// `url` as a base URL and a last path segment, since a client's paths are relative.
    static func split(_ url: URL) -> (URL, EndpointPath) {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return (url, "") }
        let path = components.percentEncodedPath
        guard let slash = path.lastIndex(of: "/") else { return (url, "") }
        let last = String(path[path.index(after: slash)...])
        components.percentEncodedPath = String(path[..<slash])
        return (components.url ?? url, EndpointPath(stringLiteral: last))
    }
}

extension AuthenticationError {
    /// The `2xx` response of an exchange with the authorization server, or the error of `kind` that
    /// says why there is none: `endpoint`'s refusal (with what `refusedGrant` says an `invalid_grant`
    /// means), or the failure that stopped the exchange. A cancellation stays one.
    static func successfulResponse(
        of result: Result<HTTPResponse, any Error>, orFail kind: Kind, endpoint: String = "the token endpoint", refusedGrant: String? = nil
    ) throws -> HTTPResponse {
        switch result {
        case .success(let response) where (200..<300).contains(response.statusCode):
            return response
        case .success(let response):
            throw AuthenticationError(kind, response: response, refusedGrant: refusedGrant, endpoint: endpoint)
        case .failure(let error) where error.isCancellation:
            throw error
        case .failure(let error):
            throw AuthenticationError(kind, underlyingError: error)
        }
    }
}
