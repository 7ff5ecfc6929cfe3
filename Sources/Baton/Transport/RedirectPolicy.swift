import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What ``URLSessionTransport`` does when a response redirects (RFC 9110 §15.4).
///
/// Followed redirects are made safe in two ways URLSession on Linux does not manage itself:
/// - When the redirect leaves the origin (scheme, host or port changes), `Authorization`,
///   `Cookie`, `Proxy-Authorization` and every header named in ``sensitiveHeaders`` are removed,
///   so credentials never reach a host they were not meant for.
/// - On 307 and 308, which keep the method, the request body is sent again: the transport follows
///   these redirects itself, because URLSession on Linux would send the redirected request
///   without its body. It follows at most ten in a row.
public struct RedirectPolicy: Sendable {
    /// Whether to follow redirects at all; when `false`, the 3xx response is the response.
    public var follows: Bool
    /// Header names (any case) removed when a redirect leaves the origin, besides
    /// ``alwaysSensitiveHeaders``.
    public var sensitiveHeaders: Set<String>

    /// Headers that always count as sensitive.
    public static let alwaysSensitiveHeaders: Set<String> = ["authorization", "cookie", "proxy-authorization"]

    /// Follow redirects, stripping only ``alwaysSensitiveHeaders`` across origins.
    public static let `default` = RedirectPolicy(follows: true, sensitiveHeaders: [])
    /// Never follow: hand the 3xx response back.
    public static let never = RedirectPolicy(follows: false, sensitiveHeaders: [])

    /// A policy that follows redirects or not, removing `sensitiveHeaders` as well as
    /// ``alwaysSensitiveHeaders`` when a redirect leaves the origin.
    public init(follows: Bool = true, sensitiveHeaders: Set<String> = []) {
        self.follows = follows
        self.sensitiveHeaders = sensitiveHeaders
    }

    /// The request to send for a redirect of `original` to `proposed`, or `nil` to stop and
    /// return the redirect response itself. Credentials are stripped when the origin changes.
    func redirect(_ proposed: URLRequest, from original: URLRequest?) -> URLRequest? {
        guard follows else { return nil }
        var request = proposed
        // Without the original request, the origin cannot be compared: strip, to be safe.
        if !Self.sameOrigin(original?.url, proposed.url) {
            let sensitive = Self.alwaysSensitiveHeaders.union(sensitiveHeaders.map { $0.lowercased() })
            for name in request.allHTTPHeaderFields?.keys.map({ $0 }) ?? [] where sensitive.contains(name.lowercased()) {
                request.setValue(nil, forHTTPHeaderField: name)
            }
        }
        return request
    }

    /// For a 307 or 308 answer to `request`, which has a body: the request to send next, with
    /// the same method (and, sent by the transport, the same body) to `Location`; `nil` for any
    /// other answer, or when redirects are not followed.
    func bodyRedirect(of request: URLRequest, by response: HTTPResponse) -> URLRequest? {
        guard follows, response.statusCode == 307 || response.statusCode == 308,
              let location = response.value(forHeader: "Location"),
              let target = URL(string: location, relativeTo: response.url ?? request.url)?.absoluteURL
        else { return nil }
        var next = request
        next.url = target
        return redirect(next, from: request)
    }

    static func sameOrigin(_ a: URL?, _ b: URL?) -> Bool {
        guard let a, let b else { return false }
        return a.scheme?.lowercased() == b.scheme?.lowercased()
            && a.host?.lowercased() == b.host?.lowercased()
            && effectivePort(a) == effectivePort(b)
    }

    private static func effectivePort(_ url: URL) -> Int? {
        if let port = url.port { return port }
        switch url.scheme?.lowercased() {
        case "http": return 80
        case "https": return 443
        default: return nil
        }
    }
}
