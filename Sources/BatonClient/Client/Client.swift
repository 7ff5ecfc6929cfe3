import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import BatonPromise

/// Sends ``Endpoint``s and hands back promises of their decoded responses.
///
/// ```swift
/// let client = try Client(baseURL: "https://api.example.com/") { configuration in
///     configuration.interceptors = [authenticator]
///     configuration.monitors = [LoggingMonitor()]
/// }
/// client.send(Orders.find(name: "山田"))
///     .success { orders in client.send(Reviews.post(facilityID: orders[0].id, content: "良い", rating: 5)) }
///     .failure { error, isCancelled in print(error) }
/// ```
///
/// For each call the client builds the request (base URL, path, query, default headers, the
/// `User-Agent`, the encoded body), then for each attempt runs the adapters, sends the request
/// through its ``Transport``, validates the status code and content type, and decodes. A failed
/// attempt goes to the interceptors, the retriers and the retry policy, in that order, and the
/// first that decides may ask for another. Monitors see every step.
///
/// The promise's progress counts bytes: sent, while a request body is being sent, then received.
/// Each attempt starts again from zero: a retry first reports zero bytes sent of its body (zero
/// bytes received when it has none), as monitors receive its `retrying` event. Cancelling the promise cancels the request on the wire
/// (or the wait before a retry); the promise settles as cancelled at once.
///
/// A client is safe to use from any number of threads at once.
public final class Client: Sendable {
    /// What the client was set up with.
    public let configuration: Configuration
    /// What carries its requests.
    public let transport: any Transport
    /// What the stages of its calls read, made once from the configuration.
    package let context: CallContext

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - configuration: The base URL and everything else.
    ///   - transport: What carries requests. By default, on Linux, ``HTTP1Transport`` for `http`
    ///     and `https` (URLSession where the environment names a proxy, or for `https` where
    ///     OpenSSL 3 cannot be loaded); on Apple platforms, ``URLSessionTransport``. To trust a
    ///     private certificate authority or pin keys, pass an ``HTTP1Transport`` made with a
    ///     `TLSConfiguration`.
    ///     Whichever it is, the client follows redirects itself, under ``Configuration/redirects``.
    ///
    /// - Throws: ``ConfigurationError`` when the base URL cannot work: no scheme (`"localhost"`),
    ///   a scheme other than http or https, or no host.
    public init(configuration: Configuration, transport: (any Transport)? = nil) throws(ConfigurationError) {
        try ConfigurationError.validate(baseURL: configuration.baseURL)
        self.configuration = configuration
        let transport = transport ?? DefaultTransport()
        self.transport = transport
        context = CallContext(configuration: configuration, transport: transport)
    }

    /// Creates a client for `baseURL`, letting `configure` change any other setting.
    ///
    /// - Throws: ``ConfigurationError`` when the base URL cannot work (see ``init(configuration:transport:)``).
    public convenience init(baseURL: URL, transport: (any Transport)? = nil, configure: (inout Configuration) -> Void = { _ in }) throws(ConfigurationError) {
        var configuration = Configuration(baseURL: baseURL)
        configure(&configuration)
        try self.init(configuration: configuration, transport: transport)
    }

    /// Creates a client for the base URL written in `baseURL`, letting `configure` change any
    /// other setting.
    ///
    /// ```swift
    /// let client = try Client(baseURL: "http://localhost:8080/")
    /// ```
    ///
    /// Unlike `URL(string: "...")!`, which crashes on `"127.0.0.1:8080"`, this throws a sentence
    /// that says what to write instead.
    ///
    /// - Throws: ``ConfigurationError`` when `baseURL` is not a URL or cannot be a base URL
    ///   (see ``init(configuration:transport:)``).
    public convenience init(baseURL: String, transport: (any Transport)? = nil, configure: (inout Configuration) -> Void = { _ in }) throws(ConfigurationError) {
        try self.init(baseURL: ConfigurationError.baseURL(from: baseURL), transport: transport, configure: configure)
    }

    /// Sends `endpoint` and returns a promise of its decoded response.
    ///
    /// The promise rejects with an ``APIError``, with the error an adapter threw if no retrier
    /// retried it, or with the error a retrier chose (``RetryDecision/fail(with:)``, such as an
    /// `AuthenticationError`); it is cancelled by `Promise.cancel()`, which stops the request
    /// on the wire.
    public func send<E: Endpoint>(_ endpoint: E) -> Promise<E.Response> {
        Call(context: context, endpoint: endpoint) { value, _ in value }.start()
    }
}
