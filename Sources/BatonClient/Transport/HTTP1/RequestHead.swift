import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import BatonWire

/// The head of a request as it goes on the wire (RFC 9112 §3): the request line in origin form,
/// `Host`, the request's own fields, and the fields the transport is responsible for.
///
/// The transport sets `Host`, `Content-Length` and `Accept-Encoding` (only the codings it can
/// undo) itself, and never sends `Expect: 100-continue` or `Transfer-Encoding`: every body it
/// carries has a known length.
struct RequestHead {
    /// The bytes of the head, ending with the empty line.
    private(set) var bytes: [UInt8] = []

    /// Checks what ``init(_:host:bodyLength:cookie:)`` writes as it is, before a request is
    /// queued: the method must be a token, and each field keep RFC 9110's rules, as
    /// ``HeaderSyntax`` checks them for the client (a transport used on its own is checked too).
    ///
    /// - Throws: ``TransportRefusal`` naming the method or the field.
    static func checkSyntax(of request: URLRequest) throws(TransportRefusal) {
        let method = request.httpMethod ?? "GET"
        guard HeaderSyntax.isToken(method) else {
            throw TransportRefusal(field: "method \"\(MessageText.escaped(method))\"", reason: "it is not an HTTP token")
        }
        for (name, value) in request.allHTTPHeaderFields ?? [:] {
            if let reason = HeaderSyntax.problem(name: name, value: value) {
                throw TransportRefusal(field: "header \"\(MessageText.escaped(name))\"", reason: reason)
            }
        }
    }

    /// How a request sent to an HTTP proxy itself differs (RFC 9112 §3.2.2): its target in
    /// absolute form, and the proxy's credentials.
    struct ProxyForm {
        /// The `Proxy-Authorization` value, replacing any of the request's own.
        var authorization: String?
    }

    /// The head of `request` to `host` (its URL's, canonical), whose body is `bodyLength` bytes
    /// long (`nil`: no body), with `cookie` as its `Cookie` field when it has none of its own,
    /// and in `proxy`'s form when it goes to an HTTP proxy. Its method and fields were checked
    /// by ``checkSyntax(of:)``.
    init(_ request: URLRequest, host: CanonicalHost, bodyLength: Int64?, cookie: String?, proxy: ProxyForm? = nil) {
        let url = request.url ?? URL(fileURLWithPath: "/")
        let method = request.httpMethod ?? "GET"
        let path = url.path(percentEncoded: true)
        // An IPv6 address is written in brackets; the port only when it is not the scheme's.
        let hostName = host.uriForm
        let defaultPort = WireText.equalIgnoringCase(url.scheme ?? "", "https") ? 443 : 80
        let authority = url.port.map { $0 == defaultPort ? hostName : "\(hostName):\($0)" } ?? hostName
        // Absolute form names the origin as the Host field does: no user information, no fragment.
        var target = (proxy == nil ? "" : "http://\(authority)") + (path.isEmpty ? "/" : path)
        if let query = url.query(percentEncoded: true) { target += "?" + query }
        bytes.reserveCapacity(256)
        append("\(method) \(target) HTTP/1.1\r\n")
        appendField("Host", authority)
        if let authorization = proxy?.authorization { appendField("Proxy-Authorization", authorization) }
        var hasAcceptEncoding = false
        var hasCookie = false
        for (name, value) in request.allHTTPHeaderFields ?? [:] {
            if Self.transportOwned.contains(where: { WireText.equalIgnoringCase(name, $0) }) { continue }
            if proxy?.authorization != nil, WireText.equalIgnoringCase(name, "Proxy-Authorization") { continue }
            if WireText.equalIgnoringCase(name, "Accept-Encoding") { hasAcceptEncoding = true }
            if WireText.equalIgnoringCase(name, "Cookie") { hasCookie = true }
            appendField(name, value)
        }
        if !hasAcceptEncoding { appendField("Accept-Encoding", "gzip, deflate") }
        if !hasCookie, let cookie { appendField("Cookie", cookie) }
        if let bodyLength {
            appendField("Content-Length", String(bodyLength))
        } else if method == "POST" || method == "PUT" || method == "PATCH" {
            // Without it a server cannot tell an empty body from one still to come.
            appendField("Content-Length", "0")
        }
        append("\r\n")
    }

    /// The fields the transport sets itself, whatever the request says.
    private static let transportOwned = ["Host", "Content-Length", "Transfer-Encoding", "Expect"]

    private mutating func appendField(_ name: String, _ value: String) {
        append(name)
        append(": ")
        append(value)
        append("\r\n")
    }

    private mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }
}
