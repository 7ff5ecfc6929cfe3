import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import BatonWire

/// Reads one response off a connection: parses it strictly as it arrives, undoes its content
/// coding, and keeps its body (in memory, under the size limit, or in a download's file),
/// reading from the socket only as fast as the body is taken and only while the request is not
/// paused. The head's cookies are kept as soon as it arrives, whatever its status (a redirect's
/// included) and whatever becomes of the body.
struct ResponseReader {
    let request: InFlightRequest
    let link: Link
    /// Where the response's `Set-Cookie` values go; `nil` when they are not kept.
    let cookies: CookieJar?

    /// Reads the response into `buffer`, a piece at a time. `answered` turns true with its first byte.
    func read(into buffer: inout [UInt8], answered: inout Bool) throws -> ConnectionResult {
        var parser = ResponseParser(requestMethod: request.request.httpMethod ?? "GET")
        var head: ResponseHead?
        var sink: BodySink?
        func handle(_ event: ResponseEvent) throws {
            switch event {
            case .head(let received):
                head = received
                if let cookies, let url = request.request.url {
                    cookies.store(setCookieValues: received.values(for: "Set-Cookie"), from: url)
                }
                // Read from the head: the parser is busy parsing, and cannot be asked.
                sink = try BodySink(head: received, declaredLength: declaredLength(of: received), request: request)
            case .body(let bytes):
                try sink?.append(bytes)
            case .end:
                break
            }
        }
        var leftOver = false
        do {
            while !parser.isComplete {
                guard request.waitWhilePaused() else { throw URLError(.cancelled) }
                let count = try buffer.withUnsafeMutableBytes { bytes in
                    try link.read(into: bytes, timeout: request.timeout)
                }
                if count == 0 {
                    if parser.isReadingUntilClose, !link.endedCleanly {
                        throw URLError(.networkConnectionLost, detail: WireError.cutWithoutCloseNotify.description)
                    }
                    do {
                        try parser.parseEnd(handle)
                    } catch let error as WireError {
                        // Cut short: what a retry may get past, unlike a malformed response.
                        throw URLError(.networkConnectionLost, detail: error.description)
                    }
                    break
                }
                if !answered { request.options.timer?.receivedFirstByte() }
                answered = true
                let consumed = try buffer.withUnsafeBytes { bytes in
                    try parser.parse(UnsafeRawBufferPointer(rebasing: bytes[0..<count]), handle)
                }
                try sink?.endOfRead()
                // Baton never sends a request before the last is answered: more bytes are a
                // server out of step, and the connection is not trusted with another request.
                if parser.isComplete, consumed < count { leftOver = true }
            }
        } catch let error as WireError {
            sink?.discard()
            throw URLError(.badServerResponse, detail: error.description)
        } catch {
            sink?.discard()
            throw error
        }
        guard let head, var sink else { throw URLError(.badServerResponse, detail: "the answer ended without a head") }
        let (body, file) = try sink.finish()
        var response = HTTPResponse(statusCode: head.status, headers: Self.headers(of: head), body: body, url: request.request.url)
        response.bodyFile = file
        return ConnectionResult(response: response, keepsConnection: parser.keepsConnection && !leftOver)
    }

    /// The body's length as the head declares it, for the size limit and progress; `nil` when
    /// it declares none, or when the response has no body whatever it declares.
    private func declaredLength(of head: ResponseHead) -> Int64? {
        // The parser's own rule for a body, asked with the method the parser was given: a length
        // declared on a response that has no body is never held against the size limit.
        guard !BodyFraming.forbidsBody(method: request.request.httpMethod ?? "GET", status: head.status),
              head["Transfer-Encoding"] == nil else { return nil }
        return head["Content-Length"].flatMap { Int64($0) }
    }

    /// The head's fields as one value per name, repeated fields joined with `, ` (RFC 9110 §5.3).
    static func headers(of head: ResponseHead) -> [String: String] {
        var headers: [String: String] = [:]
        headers.reserveCapacity(head.fields.count)
        for (name, value) in head.fields {
            if let earlier = headers[name] { headers[name] = earlier + ", " + value } else { headers[name] = value }
        }
        return headers
    }
}
