import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends ``Endpoint``s and hands back promises of their decoded responses.
///
/// ```swift
/// let client = Client(baseURL: URL(string: "https://api.example.com/")!) { configuration in
///     configuration.interceptors = [authenticator]
///     configuration.monitors = [LoggingMonitor()]
/// }
/// client.send(FindOrders(name: "山田"))
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
    /// Builds each call's request; made once, as it precomputes from the configuration.
    let builder: RequestBuilder
    /// What adapts each attempt, in order: the adapters, then the interceptors.
    let adapters: [any RequestAdapter]
    /// What is asked after a failed attempt, in order: the interceptors, the retriers, then the
    /// retry policy.
    let retriers: [any RequestRetrier]
    /// What saves decoded entities and runs the response hooks; `nil` when there is neither.
    let keeper: ResponseKeeper?
    /// Where identical `GET`s in flight are joined; `nil` unless
    /// ``Configuration/mergesIdenticalRequests``.
    let merger: RequestMerger?

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - configuration: The base URL and everything else.
    ///   - transport: What carries requests. By default, on Linux, ``HTTP1Transport`` for `http`
    ///     and `https` (URLSession where the environment names a proxy, or for `https` where
    ///     OpenSSL 3 cannot be loaded); on Apple platforms, ``URLSessionTransport``. To trust a
    ///     private certificate authority or pin keys, pass an ``HTTP1Transport`` made with a
    ///     ``TLSConfiguration``.
    ///     Whichever it is, the client follows redirects itself, under ``Configuration/redirects``.
    ///
    /// - Throws: ``ConfigurationError`` when the base URL cannot work: no scheme (`"localhost"`),
    ///   a scheme other than http or https, or no host.
    public init(configuration: Configuration, transport: (any Transport)? = nil) throws(ConfigurationError) {
        try ConfigurationError.validate(baseURL: configuration.baseURL)
        self.configuration = configuration
        self.builder = RequestBuilder(configuration: configuration)
        self.adapters = configuration.adapters + configuration.interceptors.map { $0 as any RequestAdapter }
        self.retriers = configuration.interceptors.map { $0 as any RequestRetrier } + configuration.retriers
            + (configuration.retryPolicy.map { [$0 as any RequestRetrier] } ?? [])
        self.keeper = ResponseKeeper(configuration: configuration)
        self.merger = configuration.mergesIdenticalRequests ? RequestMerger() : nil
        self.transport = transport ?? DefaultTransport()
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
    /// ``AuthenticationError``); it is cancelled by ``Promise/cancel()``, which stops the request
    /// on the wire.
    public func send<E: Endpoint>(_ endpoint: E) -> Promise<E.Response> {
        Call(client: self, endpoint: endpoint) { value, _ in value }.start()
    }

    /// The exchange stage of a call of `endpoint`, as this client sets it up: its transport, its
    /// redirect policy and sensitive headers, and the transfer options the endpoint asks for
    /// within the client's size limit.
    func exchange<E: Endpoint>(for endpoint: E) -> Exchange {
        let resumable = (endpoint as? any DownloadsToFile)?.resumable
        var options = TransferOptions(
            tracksDownloadProgress: endpoint.tracksDownloadProgress, maximumResponseSize: configuration.maximumResponseSize,
            downloadsToFile: resumable != nil
        )
        options.resumable = resumable
        options.bodyStream = (endpoint as? any StreamsBody)?.bodyStream
        if !configuration.monitors.isEmpty {
            // Weak: a connection idling after the client is gone has nobody left to tell.
            options.connectionEvents = { [weak self] event in self?.emit(.connection(event)) }
        }
        return Exchange(
            transport: transport, redirects: configuration.redirects, sensitiveHeaders: configuration.sensitiveHeaders, options: options,
            merger: merger
        )
    }

    /// Tells every monitor of `event`; the event is not even made when there are none.
    func emit(_ event: @autoclosure () -> ClientEvent) {
        let monitors = configuration.monitors
        guard !monitors.isEmpty else { return }
        let event = event()
        for monitor in monitors { monitor.receive(event, from: self) }
    }
}
