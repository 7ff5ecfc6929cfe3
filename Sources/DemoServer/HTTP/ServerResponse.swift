/// A response to write: status, header fields and the whole body.
///
/// `serializedHead` adds `Content-Length` (every whole response but 204 and 304 has one: RFC 9110
/// §8.6 forbids it on a 204, and on a 304 it would have to be the length of the body the client
/// already has, not 0), `Date`, and `Connection: close` when the connection ends after it.
struct ServerResponse: Sendable {
    var status: Int
    var headers: [(name: String, value: String)]
    /// The body: a slice, so that a `206`'s range of a stored photo is sent without a copy.
    var body: ArraySlice<UInt8>

    init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body[...]
    }

    /// A JSON response, typed `application/json; charset=utf-8`.
    static func json(_ status: Int, _ value: JSONValue, headers: [(name: String, value: String)] = []) -> ServerResponse {
        ServerResponse(
            status: status,
            headers: [("Content-Type", "application/json; charset=utf-8")] + headers,
            body: value.serialized()
        )
    }

    /// `{"message": text}` with `status`: the shape of every error body of the API.
    static func message(_ status: Int, _ text: String, headers: [(name: String, value: String)] = []) -> ServerResponse {
        json(status, .object([("message", .string(text))]), headers: headers)
    }

    /// The value of the first header field called `name`, in any case.
    func header(_ name: String) -> String? {
        headers.first { $0.name.equalsIgnoringASCIICase(name) }?.value
    }

    mutating func setHeader(_ name: String, _ value: String) {
        headers.removeAll { $0.name.equalsIgnoringASCIICase(name) }
        headers.append((name, value))
    }

    /// Statuses whose responses never carry a body (RFC 9110 §15.3.5, §15.4.5).
    var forbidsBody: Bool { status == 204 || status == 304 }

    /// How the body after a head is delimited (RFC 9112 §6.3).
    enum Framing {
        /// `Content-Length`, the length of `body`: every whole response.
        case contentLength
        /// `Transfer-Encoding: chunked`: a streamed body, after which the connection can be reused.
        case chunked
        /// Neither: a streamed body that ends when the connection closes (for HTTP/1.0 clients,
        /// which cannot read chunks).
        case untilClose
    }

    /// The status line and header fields on the wire, ending with the empty line. `keepAlive` adds
    /// `Connection: keep-alive`, which an HTTP/1.0 client needs to keep the connection open.
    func serializedHead(closing: Bool, keepAlive: Bool = false, framing: Framing = .contentLength) -> [UInt8] {
        var text = "HTTP/1.1 \(status) \(Self.reason(for: status))\r\n"
        let framingFields = ["content-length", "transfer-encoding", "connection", "date"]
        for (name, value) in headers where !framingFields.contains(where: { name.equalsIgnoringASCIICase($0) }) {
            text += "\(name): \(value)\r\n"
        }
        switch framing {
        case .contentLength where !forbidsBody: text += "Content-Length: \(body.count)\r\n"
        case .contentLength, .untilClose: break
        case .chunked: text += "Transfer-Encoding: chunked\r\n"
        }
        text += "Date: \(DateHeader.now())\r\n"
        if closing {
            text += "Connection: close\r\n"
        } else if keepAlive {
            text += "Connection: keep-alive\r\n"
        }
        text += "\r\n"
        return Array(text.utf8)
    }

    /// The body bytes that follow the head: none for HEAD (which keeps the `Content-Length` of the
    /// body it omits) or for a status that forbids a body.
    func bodyToSend(headRequest: Bool) -> ArraySlice<UInt8> {
        headRequest || forbidsBody ? [] : body
    }

    static func reason(for status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 206: "Partial Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 413: "Content Too Large"
        case 415: "Unsupported Media Type"
        case 416: "Range Not Satisfiable"
        case 417: "Expectation Failed"
        case 422: "Unprocessable Content"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        case 505: "HTTP Version Not Supported"
        default: "Status \(status)"
        }
    }
}
