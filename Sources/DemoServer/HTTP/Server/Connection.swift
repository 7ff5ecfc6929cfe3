import BatonOpenSSL

/// The limits one connection works within, taken from `DemoServer.Configuration`.
struct ConnectionSettings: Sendable {
    var idleTimeout: Duration
    var maxBodyBytes: Int
    var spillThreshold: Int
    var log: (@Sendable (String) -> Void)?
    /// What `https` connections are served with; `nil` serves `http`.
    var tls: TLSContext? = nil
}

/// One client connection, served on its own thread from first byte to close.
///
/// Requests are answered one at a time in arrival order, which is what pipelining requires. Every
/// wait (for bytes, for room to write, for an injected delay) is a `poll` bounded by the idle
/// timeout and woken by the server's stop pipe, so a silent or stuck client costs one sleeping thread
/// and never blocks anyone else or `stop()`; a streamed response's waits are ``StreamSender``'s. The
/// socket is closed when `run` returns.
final class Connection {
    private static let continueResponse = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
    /// Bodies up to this size go out in the same write as the head; larger ones separately, to avoid
    /// copying a large photo just to prepend a few header bytes.
    private static let coalesceLimit = 16 * 1024

    private let fd: Int32
    private let peer: String
    private let wake: Int32
    private let settings: ConnectionSettings
    private let handler: any HTTPHandler
    private var parser: HTTPRequestParser
    /// The connection's bytes: the socket, or TLS over it once the handshake is done.
    private var stream: ConnectionStream
    private var readBuffer = [UInt8](repeating: 0, count: 64 * 1024)
    private var lastActivity = ContinuousClock.now
    private var headStart = ContinuousClock.now

    /// Tells the handler how many bytes a write sends (see ``ConnectionStream/write(_:)``).
    private var countWrite: (Int) -> Void {
        let handler = self.handler
        return { handler.recordBytesSent($0) }
    }

    init(fd: Int32, peer: String, wake: Int32, settings: ConnectionSettings, handler: any HTTPHandler) {
        self.fd = fd
        self.peer = peer
        self.wake = wake
        self.settings = settings
        self.handler = handler
        parser = HTTPRequestParser(maxBodyBytes: settings.maxBodyBytes)
        stream = ConnectionStream(fd: fd, wake: wake, timeout: settings.idleTimeout)
    }

    func run() {
        defer { Posix.closeDescriptor(fd) }
        if let context = settings.tls {
            switch ConnectionStream.handshake(fd: fd, wake: wake, timeout: settings.idleTimeout, context: context) {
            case .success(let secured):
                stream = secured
                handler.recordHandshake(serverName: secured.requestedServerName)
            case .failure(let failure):
                settings.log?("\(peer) (TLS handshake failed) \(failure.reason)")
                return
            }
        }
        stream.onWrite = countWrite
        var head: HTTPRequestHead?
        let body = IncomingBody(spillThreshold: settings.spillThreshold)
        defer { body.close() }
        while true {
            let event: HTTPRequestParser.Event?
            do {
                event = try parser.next()
            } catch {
                refuse(error, head: head)
                return
            }
            switch event {
            case .head(let received):
                head = received
                if received.expectsContinue, received.framing != .none {
                    guard send(Self.continueResponse[...]) else { return }
                }
            case .body(let piece):
                do {
                    try body.append(piece)
                } catch {
                    refuse(HTTPParseError(status: 500, message: "could not store the body: \(error)"), head: head)
                    return
                }
            case .end:
                guard let request = head else { return }
                let keepOpen = respond(to: request, body: body)
                body.close()
                head = nil
                // The idle timeout counts from the response, not from the request: an injected delay
                // longer than the timeout must not close the connection the moment it answers.
                headStart = .now
                lastActivity = .now
                guard keepOpen else { return }
            case nil:
                guard readMore(head: head, bodyBytes: body.count) else { return }
            }
        }
    }

    /// Waits for and reads the next bytes; false when the connection is over. A request the client
    /// gives up on midway (`head` received, `bodyBytes` of its body so far) is logged as such.
    private func readMore(head: HTTPRequestHead?, bodyBytes: Int) -> Bool {
        let idle = parser.isBetweenRequests
        // The whole head must arrive within one timeout (so a trickle cannot hold a thread);
        // otherwise the timeout is on silence, so large uploads may take as long as they need.
        let deadline = parser.isReadingHead && !idle ? headStart + settings.idleTimeout : lastActivity + settings.idleTimeout
        // Bytes TLS has already taken off the socket are read without waiting for more.
        let ready = stream.hasBufferedInput ? .ready : Posix.wait(for: fd, wake: wake, until: deadline)
        switch ready {
        case .stopping:
            return false
        case .timedOut:
            if !idle { refuse(.timeout, head: head) }
            return false
        case .ready:
            let count = readBuffer.withUnsafeMutableBytes { stream.receive(into: $0) }
            guard let count else { return true }
            guard count > 0 else {
                if let head { logIncomplete(head, bodyBytes: bodyBytes) }
                return false
            }
            if idle { headStart = .now }
            lastActivity = .now
            readBuffer.withUnsafeBytes { parser.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            return true
        }
    }

    /// Hands a complete request to the handler and writes its reply; false when the connection
    /// must close afterwards.
    private func respond(to head: HTTPRequestHead, body: IncomingBody) -> Bool {
        // A response the handler does not count (reading its own counts) is written uncounted.
        stream.onWrite = handler.countsBytesSent(answering: head) ? countWrite : nil
        defer { stream.onWrite = countWrite }
        let started = ContinuousClock.now
        let wake = self.wake
        let fd = self.fd
        let hungUp = HangUpFlag()
        let exchange = HTTPExchange(head: head, body: body, peer: peer) { duration in
            Self.pause(duration, watching: fd, wake: wake, hungUp: hungUp)
        }
        switch handler.reply(to: exchange) {
        case .stream(let response):
            return respond(streaming: response, to: head, since: started)
        case .drop:
            let note = hungUp.value ? "abandoned: the client closed the connection during the delay" : "dropped (X-Demo-Fault)"
            log(head, status: nil, bytes: 0, since: started, note: note)
            return false
        case .respond(let response, let cut):
            let closing = !head.keepAlive
            let headBytes = response.serializedHead(closing: closing, keepAlive: head.version == .http1_0)
            let bodyBytes = response.bodyToSend(headRequest: head.method == "HEAD")
            // Logged before the response goes, so that a client holding its response finds the line;
            // a stalled response is logged once the stall is over, saying how it ended.
            if let cut {
                // The first bytes of head and body, without joining them: a body may be 256 MiB.
                let sendCut = { () -> Bool in
                    let bodyPart = bodyBytes.prefix(max(0, cut.after - headBytes.count))
                    return self.send(headBytes.prefix(cut.after)) && (bodyPart.isEmpty || self.send(bodyPart))
                }
                let note = "cut after \(cut.after) bytes (X-Demo-Fault)"
                guard let hold = cut.hold else {
                    log(head, status: response.status, bytes: bodyBytes.count, since: started, note: note)
                    _ = sendCut()
                    return false
                }
                var stalled = note
                if sendCut() {
                    let hungUp = HangUpFlag()
                    _ = Self.pause(hold, watching: fd, wake: wake, hungUp: hungUp)
                    stalled = hungUp.value
                        ? "stalled after \(cut.after) bytes until the client closed the connection (X-Demo-Fault)"
                        : "stalled after \(cut.after) bytes (X-Demo-Fault)"
                }
                log(head, status: response.status, bytes: bodyBytes.count, since: started, note: stalled)
                return false
            }
            log(head, status: response.status, bytes: bodyBytes.count, since: started, note: nil)
            let sent = bodyBytes.count <= Self.coalesceLimit
                ? send((headBytes + bodyBytes)[...])
                : send(headBytes[...]) && send(bodyBytes)
            if sent, closing { stream.closeNotify() }
            return sent && !closing
        }
    }

    /// Sends a streamed response and logs how it ended; false when the connection must close
    /// afterwards. The line is logged before the end of the body goes, as every response's is.
    private func respond(streaming response: StreamedResponse, to head: HTTPRequestHead, since started: ContinuousClock.Instant) -> Bool {
        // An HTTP/1.0 client cannot read chunks: its body ends when the connection closes.
        let chunked = head.version != .http1_0
        let closing = !head.keepAlive || !chunked
        let headBytes = response.serializedHead(closing: closing, framing: chunked ? .chunked : .untilClose)
        if head.method == "HEAD" {
            log(head, status: response.status, bytes: 0, since: started, note: nil)
            return send(headBytes[...]) && !closing
        }
        handler.recordStreamStarted()
        var sender = StreamSender(stream: stream, wake: wake, idleTimeout: settings.idleTimeout, chunked: chunked, handler: handler)
        let ending = sender.run(response, head: headBytes)
        // A pipelined request that arrived during the stream is next.
        sender.incoming.withUnsafeBytes { parser.append($0) }
        log(head, status: response.status, bytes: sender.bytesSent, since: started,
            note: "streamed \(response.unit.count(sender.elementsSent)): \(ending)")
        guard ending == .finished else { return false }
        let ended = !chunked || send(StreamSender.lastChunk[...])
        if ended, closing { stream.closeNotify() }
        return ended && !closing
    }

    /// Answers a request the HTTP layer refused, then closes without resetting the connection.
    private func refuse(_ error: HTTPParseError, head: HTTPRequestHead?) {
        handler.recordMalformedRequest()
        let response = ServerResponse.message(error.status, error.message)
        let bytes = response.serializedHead(closing: true) + response.body
        let started = ContinuousClock.now
        if send(bytes[...]) { lingeringClose() }
        if let head {
            log(head, status: error.status, bytes: response.body.count, since: started, note: error.message)
        } else {
            settings.log?("\(peer) (malformed request) \(error.status) \(error.message)")
        }
    }

    /// Stops sending and reads what the client still sends for a moment, so that its unread bytes do
    /// not make the kernel reset the connection before it has read the error response (RFC 9112 §9.6).
    private func lingeringClose() {
        Posix.shutdownWrite(fd)
        let deadline = ContinuousClock.now + min(settings.idleTimeout, .seconds(2))
        while Posix.wait(for: fd, wake: wake, until: deadline) == .ready {
            let count = readBuffer.withUnsafeMutableBytes { Posix.receive(fd, into: $0) }
            if let count, count <= 0 { return }
        }
    }

    /// Writes all of `bytes`, waiting for room as needed; false when the client went away, stopped
    /// reading for a whole idle timeout, or the server is stopping.
    private func send(_ bytes: ArraySlice<UInt8>) -> Bool {
        stream.write(bytes) == nil
    }

    /// Logs a request whose client closed the connection before sending all of it: no response,
    /// and nothing done with it (a test waits for this line to know the request is over).
    private func logIncomplete(_ head: HTTPRequestHead, bodyBytes: Int) {
        let expected = if case .contentLength(let length) = head.framing { " of \(length)" } else { "" }
        log(head, status: nil, bytes: 0, since: headStart,
            note: "incomplete: the client closed the connection after \(bodyBytes)\(expected) body bytes")
    }

    private func log(_ head: HTTPRequestHead, status: Int?, bytes: Int, since: ContinuousClock.Instant, note: String?) {
        guard let log = settings.log else { return }
        let elapsed = ContinuousClock.now - since
        let millis = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        var line = "\(peer) \"\(head.method) \(head.target) \(head.version)\" \(status.map(String.init) ?? "-") "
            + "\(bytes)B \((millis * 10).rounded() / 10)ms"
        if let note { line += " \(note)" }
        log(line)
    }

    /// Waits out an injected delay, unless the server stops or the client hangs up (a cancelled
    /// request): then returns false, so that the request's work is abandoned as a real server
    /// would abandon it. Bytes of a pipelined next request do not count as a hang-up.
    private static func pause(_ duration: Duration, watching fd: Int32, wake: Int32, hungUp: HangUpFlag) -> Bool {
        let deadline = ContinuousClock.now + duration
        var watched: Int32? = fd
        while true {
            switch Posix.wait(for: watched, wake: wake, until: deadline) {
            case .timedOut:
                return true
            case .stopping:
                return false
            case .ready:
                if Posix.peerHasClosed(fd) {
                    hungUp.value = true
                    return false
                }
                watched = nil  // data waiting (a pipelined request): sleep on the wake pipe alone
            }
        }
    }
}

/// Set when the client hung up during an injected delay; read on the same connection thread.
private final class HangUpFlag {
    var value = false
}
