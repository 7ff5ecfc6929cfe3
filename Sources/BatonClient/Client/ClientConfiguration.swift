import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Client {
    /// Everything a ``Client`` is set up with. Each default is stated where it is declared.
    public struct Configuration: Sendable {
        /// The URL every endpoint's path is relative to, such as `https://api.example.com/v1/`.
        public var baseURL: URL
        /// Header fields sent with every request; an endpoint's own headers win over these.
        public var headers: [String: String] = [:]
        /// The `User-Agent` sent unless `headers` or the endpoint sets one. Default
        /// ``defaultUserAgent``.
        public var userAgent: String = Client.defaultUserAgent
        /// Decodes JSON responses unless an endpoint brings its own decoder.
        public var decoder = JSONDecoder()
        /// Encodes ``RequestBody/json(_:)`` bodies.
        public var encoder = JSONEncoder()
        /// Adapters run in this order before every attempt.
        public var adapters: [any RequestAdapter] = []
        /// Objects that both adapt and retry, such as an `Authenticator`: each adapts after
        /// ``adapters`` and is asked before ``retriers``, in this order.
        public var interceptors: [any RequestInterceptor] = []
        /// Your retriers, asked in this order after a failed attempt, before ``retryPolicy``.
        /// Adding one keeps the retry policy.
        public var retriers: [any RequestRetrier] = []
        /// The retrier asked last, for transient failures; `nil` for no automatic retries.
        /// Default ``RetryPolicy/default``.
        public var retryPolicy: RetryPolicy? = .default
        /// Monitors told of every event, in this order.
        public var monitors: [any ClientMonitor] = []
        /// Header names (besides `Authorization`, `Cookie` and `Proxy-Authorization`) that are
        /// removed when a redirect leaves the origin, and hidden in logs: the one place to mark a
        /// header of your own secret (`X-Api-Key`, say). ``RedirectPolicy/sensitiveHeaders`` and
        /// ``Redaction/headers`` each do half of it, for the rare header that needs only that half.
        public var sensitiveHeaders: Set<String> = []
        /// How redirects are followed: see ``RedirectPolicy``. The client applies it whatever its
        /// transport.
        public var redirects: RedirectPolicy = .default
        /// What Baton hides wherever it prints this client's requests and responses: log lines,
        /// cURL renderings, error descriptions. The ``sensitiveHeaders`` are hidden too.
        public var redaction: Redaction = .default
        /// How long an attempt may wait for data before it fails with `URLError.timedOut`.
        /// Default 60 seconds, URLSession's own. On Linux URLSession counts whole seconds, so a
        /// fraction is rounded up.
        public var timeout: Duration = .seconds(60)
        /// How long a whole call may take, from ``Client/send(_:)`` to its last byte, every
        /// attempt and retry wait included; past it the call fails with an ``APIError`` of kind
        /// ``APIError/Kind/deadlineExceeded`` and the request on the wire is cancelled. `nil`
        /// (the default) sets no deadline: ``timeout`` alone bounds each wait for data, so a
        /// server that drips a byte at a time can hold a call for as long as it drips.
        public var deadline: Duration?
        /// The largest response body, in bytes, a call keeps in memory: counted as it arrives,
        /// after any `Content-Encoding` is undone, or declared up front by `Content-Length`. Past
        /// it the transfer is stopped and the call fails with an ``APIError`` of kind
        /// ``APIError/Kind/responseTooLarge``, so a server cannot make the client hold more than
        /// this, whatever it sends. Default ``defaultMaximumResponseSize``.
        public var maximumResponseSize: Int = Configuration.defaultMaximumResponseSize

        /// The queue the client settles its promises and reports their progress on, such as
        /// `.main` for an app whose handlers update the screen: handlers added without a queue
        /// then run there, and so do the steps chained after them. `nil` (the default) settles
        /// on whichever thread the response arrived on. A handler added to a promise that has
        /// already settled still runs at once, on the thread adding it.
        public var deliveryQueue: DispatchQueue?
        /// Where decoded ``StoredEntity`` values (and arrays of them) are saved, upserted by id,
        /// before their call fulfils; also what ``Client/fetch(_:offline:)`` answers from when
        /// the network fails. `nil` (the default) saves nothing.
        public var store: (any EntityStore)?
        /// Whether a `GET` whose decoded value is in ``store`` asks the server whether it changed
        /// rather than for the value again: the validator of the response it was saved from (`ETag`,
        /// `Last-Modified`) goes as `If-None-Match` / `If-Modified-Since`, and a `304 Not
        /// Modified` answers with the stored value, untouched (``Fetched/isRevalidated``), no body
        /// crossing the wire; a `200` replaces it. A response marked `Cache-Control: no-store`
        /// keeps no validator (its value is still saved, for ``Client/fetch(_:offline:)``).
        /// Validators are kept in the store, beside the entities, one per URL, with a hash of the
        /// credentials (`Authorization`, `Cookie`) they were asked with: a call with other
        /// credentials (another account, a refreshed token) asks for the whole value again, so
        /// that no account is answered with another's. Default `false`: every call
        /// asks for the whole value, as a call without a store does.
        public var revalidatesStoredValues = false
        /// Whether a call whose entities could not be saved fails with the store's error. By
        /// default (`false`) it fulfils with its value all the same, and monitors receive a
        /// ``ClientEvent/Kind/storeFailed`` event: a full disk never loses a response.
        public var failsCallsWhenStoreFails = false
        /// Run after each successful call's value is decoded (and saved), before the call
        /// fulfils, in this order: see ``ResponseHook``.
        public var responseHooks: [any ResponseHook] = []

        /// Whether a `GET` sent while the same `GET` is in flight (the same URL and header
        /// fields, after the adapters: `Authorization` included) waits for that one's response
        /// rather than sending its own: a list that five views fetch at once is fetched once.
        /// Each call still validates and decodes the response, and runs its own handlers; one call
        /// cancelling leaves the request running for the others, and it stops when all of them
        /// have cancelled; pausing a call does not pause the request the others wait for.
        /// Requests with a body, downloads and streams are never merged. A call that joined
        /// another's request shows none of its connection's phases in its timings (its time is
        /// all ``AttemptTimings/receiving``). Default `false`: every call sends its own request,
        /// as a server that counts them expects.
        public var mergesIdenticalRequests = false

        /// The largest ``RequestBody/multipart(_:)`` body built in memory; a larger one is written to
        /// a temporary file, off the caller's thread, and uploaded from it. Default
        /// ``defaultMultipartMemoryThreshold``.
        public var multipartMemoryThreshold: Int = Configuration.defaultMultipartMemoryThreshold

        /// 10 MB: a few phone photos fit in memory, a video does not.
        public static let defaultMultipartMemoryThreshold = 10_000_000

        /// 32 MiB: far above any JSON response or photo, and low enough that a few dozen calls at
        /// once fit in a phone's memory (``TransferOptions/defaultMaximumResponseSize``).
        public static let defaultMaximumResponseSize = TransferOptions.defaultMaximumResponseSize

        /// A configuration for `baseURL`, with every other setting at its default.
        public init(baseURL: URL) {
            self.baseURL = baseURL
        }
    }

    /// The `User-Agent` Baton sends by default: `Baton/<version> (<os> <version>)`.
    public static let defaultUserAgent: String = {
        let version = ProcessInfo.processInfo.operatingSystemVersion
        #if os(Linux)
        let system = "Linux"
        #elseif os(macOS)
        let system = "macOS"
        #elseif os(iOS)
        let system = "iOS"
        #elseif os(tvOS)
        let system = "tvOS"
        #elseif os(watchOS)
        let system = "watchOS"
        #elseif os(visionOS)
        let system = "visionOS"
        #else
        let system = "unknown"
        #endif
        return "Baton/\(Client.version) (\(system) \(version.majorVersion).\(version.minorVersion).\(version.patchVersion))"
    }()

    /// Baton's version, as sent in the default `User-Agent`.
    public static let version = "0.1.0"
}
