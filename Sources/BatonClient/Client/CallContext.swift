import Dispatch
import Foundation

/// What the stages of a call read, made once per client from its configuration: so that no stage
/// holds the ``Client`` itself, and each reads only what it needs.
///
/// ``Call``, ``ResponseProcessing``, ``ResponseKeeper``, ``Revalidation``, ``CallReport`` and the
/// stream sessions take a context. Every call of one client shares its context, which never
/// changes: a client's configuration is fixed when it is made.
package final class CallContext: Sendable {
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
    /// ``Client/Configuration/mergesIdenticalRequests``.
    let merger: RequestMerger?
    /// What carries the requests.
    let transport: any Transport
    /// What decodes bodies, unless an endpoint brings its own.
    let decoder: JSONDecoder
    /// How long a call may take, all attempts included; `nil` for no limit.
    let deadline: Duration?
    /// Where promises settle and report progress; `nil` for wherever the work finishes.
    let deliveryQueue: DispatchQueue?
    /// Who hears of every step; when there is nobody, no event is even made.
    let monitors: [any ClientMonitor]
    /// Where decoded entities are kept, and with `revalidatesStoredValues`, asked again for.
    let store: (any EntityStore)?
    let revalidatesStoredValues: Bool
    /// What the exchange stage follows and drops on redirects, and the most a body may hold.
    let redirects: RedirectPolicy
    let sensitiveHeaders: Set<String>
    let maximumResponseSize: Int

    init(configuration: Client.Configuration, transport: any Transport) {
        builder = RequestBuilder(configuration: configuration)
        adapters = configuration.adapters + configuration.interceptors.map { $0 as any RequestAdapter }
        retriers = configuration.interceptors.map { $0 as any RequestRetrier } + configuration.retriers
            + (configuration.retryPolicy.map { [$0 as any RequestRetrier] } ?? [])
        keeper = ResponseKeeper(configuration: configuration)
        merger = configuration.mergesIdenticalRequests ? RequestMerger() : nil
        self.transport = transport
        decoder = configuration.decoder
        deadline = configuration.deadline
        deliveryQueue = configuration.deliveryQueue
        monitors = configuration.monitors
        store = configuration.store
        revalidatesStoredValues = configuration.revalidatesStoredValues
        redirects = configuration.redirects
        sensitiveHeaders = configuration.sensitiveHeaders
        maximumResponseSize = configuration.maximumResponseSize
    }

    /// What descriptions of this client's requests hide: its redaction and sensitive headers.
    package var redaction: Redaction { builder.redaction }

    /// Tells every monitor of `event`; the event is not even made when there are none.
    func emit(_ event: @autoclosure () -> ClientEvent) {
        guard !monitors.isEmpty else { return }
        let event = event()
        for monitor in monitors { monitor.receive(event) }
    }

    /// Runs `work` (settling or reporting) on the delivery queue if there is one, at once
    /// otherwise.
    func deliver(_ work: @escaping @Sendable () -> Void) {
        guard let deliveryQueue else { return work() }
        deliveryQueue.async(execute: work)
    }

    /// The exchange stage of a call: the transport, the redirect policy and sensitive headers,
    /// and the transfer options the call asks for (where its body goes, whether its bytes are
    /// reported as they arrive) within the size limit.
    func exchange(tracksDownloadProgress: Bool, destination: BodyDestination) -> Exchange {
        var options = TransferOptions(
            tracksDownloadProgress: tracksDownloadProgress, maximumResponseSize: maximumResponseSize, destination: destination
        )
        if !monitors.isEmpty {
            // Weak: a connection idling after the client is gone has nobody left to tell.
            options.connectionEvents = { [weak self] event in self?.emit(.connection(event)) }
        }
        return Exchange(transport: transport, redirects: redirects, sensitiveHeaders: sensitiveHeaders, options: options, merger: merger)
    }
}
