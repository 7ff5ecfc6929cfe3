import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Something that happened to a call made through a ``Client``, as ``ClientMonitor``s see it.
///
/// Its ``kind`` says what happened; the properties that matter for that kind are set, the others
/// are `nil`. A struct rather than an enum, so that new kinds and details can be added without
/// breaking a monitor's code: switch over ``kind`` with a `default` case.
///
/// ```swift
/// struct Metrics: ClientMonitor {
///     func receive(_ event: ClientEvent) {
///         switch event.kind {
///         case .failed: report(event.error)
///         case .succeeded: record(event.duration)
///         default: break
///         }
///     }
/// }
/// ```
public struct ClientEvent: Sendable, CustomStringConvertible {
    /// What happened. Compare with `==` or match in a `switch` (which needs a `default`).
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        private let name: String

        /// A call was made (once per ``Client/send(_:)``).
        public static let started = Kind(name: "started")
        /// An attempt is about to be sent, after the adapters ran: ``ClientEvent/urlRequest`` is
        /// exactly what goes on the wire, its body in `httpBody` (except a body streamed from a file).
        public static let attemptStarted = Kind(name: "attemptStarted")
        /// An attempt failed with ``ClientEvent/error`` and a retrier asked for another after
        /// ``ClientEvent/delay``.
        public static let retrying = Kind(name: "retrying")
        /// The call succeeded with ``ClientEvent/response``.
        public static let succeeded = Kind(name: "succeeded")
        /// The call failed for good with ``ClientEvent/error``, a cancellation included.
        public static let failed = Kind(name: "failed")
        /// The call's decoded entities could not be saved to the client's store:
        /// ``ClientEvent/error`` says why. The call still fulfils unless
        /// ``Client/Configuration/failsCallsWhenStoreFails`` is set.
        public static let storeFailed = Kind(name: "storeFailed")
        /// The call failed on the network (``ClientEvent/error``) and answered from the client's
        /// store instead (see ``Client/fetch(_:offline:)``).
        public static let servedFromStore = Kind(name: "servedFromStore")
        /// A download threw away what had arrived and started over: the file changed on the server,
        /// the server sent it whole rather than the rest, or it was not whole when checked.
        /// ``ClientEvent/reason`` says which; the call's progress goes back with it.
        public static let startedOver = Kind(name: "startedOver")
        /// A connection of the client's transport opened, was reused or closed (``ClientEvent/connection``).
        /// Told by transports that pool connections, such as ``HTTP1Transport``, to clients with
        /// monitors; a connection is not a call, so the ``ClientEvent/request`` is empty.
        public static let connection = Kind(name: "connection")

        /// The kind's name, as in `retrying`.
        public var description: String { name }
    }

    /// What happened.
    public let kind: Kind
    /// The call the event is about.
    public let request: RequestSummary
    /// The attempt's number (1 for the first) for ``Kind/attemptStarted`` and ``Kind/retrying``
    /// (the attempt that failed).
    public let attempt: Int?
    /// How many attempts were made, for ``Kind/succeeded`` and ``Kind/failed`` (0 when the request
    /// could not be built, so nothing was sent).
    public let attempts: Int?
    /// What goes on the wire, for ``Kind/attemptStarted``.
    public let urlRequest: URLRequest?
    /// The failure, for ``Kind/retrying`` (the attempt's), ``Kind/failed`` (the call's),
    /// ``Kind/storeFailed`` (the store's) and ``Kind/servedFromStore`` (the network's).
    public let error: (any Error)?
    /// How long the client waits before the next attempt, for ``Kind/retrying``.
    public let delay: Duration?
    /// Why the attempt is retried, for ``Kind/retrying``: which retry count it uses.
    public let retryCause: RetryCause?
    /// The response, for ``Kind/succeeded``.
    public let response: HTTPResponse?
    /// How long the call took from ``Client/send(_:)``, for ``Kind/succeeded`` and ``Kind/failed``.
    public let duration: Duration?
    /// What happened to the connection, for ``Kind/connection``.
    public let connection: ConnectionEvent?
    /// Where the call's time went, phase by phase, for ``Kind/succeeded`` and ``Kind/failed``:
    /// see ``CallTimings``.
    public let timings: CallTimings?
    /// Why, for ``Kind/startedOver``.
    public let reason: String?

    private init(
        _ kind: Kind, _ request: RequestSummary, attempt: Int? = nil, attempts: Int? = nil, urlRequest: URLRequest? = nil,
        error: (any Error)? = nil, delay: Duration? = nil, retryCause: RetryCause? = nil, response: HTTPResponse? = nil,
        duration: Duration? = nil, connection: ConnectionEvent? = nil, timings: CallTimings? = nil, reason: String? = nil
    ) {
        self.kind = kind
        self.request = request
        self.attempt = attempt
        self.attempts = attempts
        self.urlRequest = urlRequest
        self.error = error
        self.delay = delay
        self.retryCause = retryCause
        self.response = response
        self.duration = duration
        self.connection = connection
        self.timings = timings
        self.reason = reason
    }

    /// The event of a call to `request` being made.
    static func started(_ request: RequestSummary) -> ClientEvent {
        ClientEvent(.started, request)
    }

    /// The event of attempt number `attempt` of `request` about to send `urlRequest`.
    static func attemptStarted(_ request: RequestSummary, attempt: Int, request urlRequest: URLRequest) -> ClientEvent {
        ClientEvent(.attemptStarted, request, attempt: attempt, urlRequest: urlRequest)
    }

    /// The event of attempt number `attempt` of `request` having failed with `error`, to be retried
    /// after `delay` for `cause`.
    static func retrying(
        _ request: RequestSummary, attempt: Int, error: any Error, delay: Duration, cause: RetryCause = .unspecified
    ) -> ClientEvent {
        ClientEvent(.retrying, request, attempt: attempt, error: error, delay: delay, retryCause: cause)
    }

    /// The event of a call to `request` having succeeded with `response` after `attempts` attempts and `duration`.
    static func succeeded(_ request: RequestSummary, response: HTTPResponse, attempts: Int, duration: Duration, timings: CallTimings? = nil) -> ClientEvent {
        ClientEvent(.succeeded, request, attempts: attempts, response: response, duration: duration, timings: timings)
    }

    /// The event of a call to `request` having failed for good with `error` after `attempts` attempts and `duration`.
    static func failed(_ request: RequestSummary, error: any Error, attempts: Int, duration: Duration, timings: CallTimings? = nil) -> ClientEvent {
        ClientEvent(.failed, request, attempts: attempts, error: error, duration: duration, timings: timings)
    }

    /// The event of a call to `request` whose entities could not be saved, for `error`.
    static func storeFailed(_ request: RequestSummary, error: any Error) -> ClientEvent {
        ClientEvent(.storeFailed, request, error: error)
    }

    /// The event of a call to `request` answered from the store after the network failed with `error`.
    static func servedFromStore(_ request: RequestSummary, error: any Error) -> ClientEvent {
        ClientEvent(.servedFromStore, request, error: error)
    }

    /// The event of a download to `request` having started over, for `reason`.
    static func startedOver(_ request: RequestSummary, reason: String) -> ClientEvent {
        ClientEvent(.startedOver, request, reason: reason)
    }

    /// The event of `connection` having opened, been reused or closed.
    static func connection(_ connection: ConnectionEvent) -> ClientEvent {
        ClientEvent(.connection, RequestSummary(method: .get, url: nil, path: ""), connection: connection)
    }

    /// The kind and the call, as in `failed: GET /orders/7`.
    public var description: String { "\(kind): \(request)" }
}
