import Foundation

extension RawClient {
    /// Sends `method path` with `token` and the given header lines, byte for byte as written, and
    /// reads the response whole (none of a body for HEAD, 204 and 304).
    func request(
        _ method: String = "GET", _ path: String, token: String, fields: [String] = [], body: [UInt8] = []
    ) throws -> Response {
        var lines = ["\(method) \(path) HTTP/1.1", "Host: x", "Authorization: Bearer \(token)"] + fields
        if !body.isEmpty { lines.append("Content-Length: \(body.count)") }
        send(Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8) + body)
        return try readResponse(headRequest: method == "HEAD")
    }
}
