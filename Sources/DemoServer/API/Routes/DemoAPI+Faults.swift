/// `X-Demo-Fault`: the failures a request asks for, applied before anything else the server does
/// with it (those that replace the response) and to its response (those that change it).
extension DemoAPI {
    /// What a request's faults decided before routing.
    enum FaultStage {
        /// The request is answered (or dropped) by its fault.
        case done(HTTPReply)
        /// The request goes on to its route; the fault, if any, changes its response in ``finish(_:fault:)``.
        case proceed(Fault?)
    }

    /// Applies the faults that come before routing: a bad header (400), a barrier, a delay, a
    /// drop, and the responses that replace the route's (`status`, `body=garbage`, `body-bytes`).
    func applyFaults(_ exchange: HTTPExchange) -> FaultStage {
        guard let faultHeader = exchange.head.headers[Fault.headerName] else { return .proceed(nil) }
        let fault: Fault
        do {
            fault = try Fault.parse(faultHeader)
        } catch {
            return .done(.respond(.message(400, error.message)))
        }
        guard shouldApply(fault, headerValue: faultHeader) else { return .proceed(nil) }
        if let size = fault.barrier, !passBarrier(size, headerValue: faultHeader, exchange) { return .done(.drop) }
        if let delay = fault.delay, !exchange.pause(delay) { return .done(.drop) }
        if fault.drop { return .done(.drop) }
        if let status = fault.status {
            return .done(finish(.message(status, "injected"), fault: fault))
        }
        if fault.garbageBody {
            let garbage = ServerResponse(
                status: 200, headers: [("Content-Type", "application/json; charset=utf-8")], body: Self.garbageBody
            )
            return .done(finish(garbage, fault: fault))
        }
        if let size = fault.bodyBytes {
            let body = ServerResponse(
                status: 200, headers: [("Content-Type", "application/json; charset=utf-8")], body: Self.paddedBody(size)
            )
            return .done(finish(body, fault: fault))
        }
        return .proceed(fault)
    }

    /// A JSON document of exactly `size` bytes: a string of `x`s (spaces below two bytes, which
    /// JSON reads as nothing).
    static func paddedBody(_ size: Int) -> [UInt8] {
        guard size >= 2 else { return [UInt8](repeating: 0x20, count: size) }
        var body = [UInt8](repeating: UInt8(ascii: "x"), count: size)
        body[0] = UInt8(ascii: "\"")
        body[size - 1] = UInt8(ascii: "\"")
        return body
    }

    /// Counts the request against `times` and says whether the fault applies to it.
    private func shouldApply(_ fault: Fault, headerValue: String) -> Bool {
        guard let times = fault.times else { return true }
        let seen = state.withLock { state in
            state.faultCounts[headerValue, default: 0] += 1
            return state.faultCounts[headerValue, default: 0]
        }
        return seen <= times
    }

    /// How often a request held at a barrier looks whether its group is complete; between looks
    /// it watches its connection, so a client hanging up or the server stopping ends the wait.
    static let barrierPollInterval = Duration.milliseconds(20)

    /// Holds the request until `size` requests with this header value have arrived (counting it),
    /// the whole group of `size` it belongs to; false when the wait is abandoned: the client hung
    /// up, the server is stopping, or ``Fault/maxDelay`` passed.
    private func passBarrier(_ size: Int, headerValue: String, _ exchange: HTTPExchange) -> Bool {
        let ticket = state.withLock { state in
            defer { state.barrierArrivals[headerValue, default: 0] += 1 }
            return state.barrierArrivals[headerValue, default: 0]
        }
        let groupComplete = (ticket / size + 1) * size
        let deadline = ContinuousClock.now + Fault.maxDelay
        while state.withLock({ $0.barrierArrivals[headerValue, default: 0] }) < groupComplete {
            guard ContinuousClock.now < deadline, exchange.pause(Self.barrierPollInterval) else { return false }
        }
        return true
    }

    /// The parts of a fault that change a response rather than replace it.
    func finish(_ response: ServerResponse, fault: Fault?) -> HTTPReply {
        var response = response
        guard let fault else { return .respond(response) }
        if let retryAfter = fault.retryAfter { response.setHeader("Retry-After", String(retryAfter)) }
        if let contentType = fault.contentType { response.setHeader("Content-Type", contentType) }
        if let challenge = fault.challenge { response.setHeader("WWW-Authenticate", "\(challenge) realm=\"demo\"") }
        if fault.gzip, !response.forbidsBody {
            response.body = Gzip.compress(Array(response.body))[...]
            response.setHeader("Content-Encoding", "gzip")
        }
        if let stallAfter = fault.stallAfter { return .respond(response, cut: Cut(after: stallAfter, hold: Fault.maxDelay)) }
        return .respond(response, cut: fault.dropAfter.map { Cut(after: $0, hold: nil) })
    }
}
