import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import BatonWire

/// What a ``Client`` does when a response redirects (RFC 9110 §15.4): set it as
/// ``Client/Configuration/redirects``.
///
/// The client follows redirects itself, whatever transport it was given (a transport hands back
/// every 3xx as it arrived), so these rules hold for every request:
/// - Only `http` and `https` targets are followed; a redirect elsewhere (`ftp:`, `file:`, ...),
///   or to a host that could be read as two (`%00` in it), fails the call with an ``APIError``
///   of kind ``APIError/Kind/redirectRefused``.
/// - When a redirect leaves the origin (scheme, host or port changes), `Authorization`,
///   `Cookie`, `Proxy-Authorization`, every header in ``sensitiveHeaders`` and the client's
///   ``Client/Configuration/sensitiveHeaders`` are removed.
/// - 303, and 301 or 302 of a `POST`, continue as a `GET` without the body or its
///   `Content-Type`. Every other redirect keeps the method and sends the body again: 307, 308,
///   and 301 or 302 of `PUT`, `PATCH` or `DELETE`, which would otherwise arrive empty.
/// - A body is sent again only over `http` and `https`, never from `https` to `http`, and to
///   another origin only with ``sendsBodyAcrossOrigins``; otherwise the call fails with
///   ``APIError/Kind/redirectRefused``, nothing sent to the target.
/// - At most ``maximumRedirects`` in a row; past that the call fails with
///   `URLError.httpTooManyRedirects`.
public struct RedirectPolicy: Sendable {
    /// Whether to follow redirects at all; when `false`, the 3xx response is the response.
    public var follows: Bool
    /// Header names (any case) removed when a redirect leaves the origin, besides
    /// ``alwaysSensitiveHeaders`` and the client's sensitive headers. To mark a header of your
    /// own secret, use ``Client/Configuration/sensitiveHeaders`` instead: one setting that both
    /// removes it on such a redirect and hides it in every log line; this one removes it only.
    public var sensitiveHeaders: Set<String>
    /// Whether a redirect may carry a request's body to another origin (307, 308, and 301 or 302
    /// of `PUT`, `PATCH`, `DELETE`). Off by default: the body may hold a password or personal
    /// data meant for the first host only.
    public var sendsBodyAcrossOrigins: Bool

    /// Headers that always count as sensitive.
    public static let alwaysSensitiveHeaders: Set<String> = ["authorization", "cookie", "proxy-authorization"]

    /// How many redirects in a row a call follows: browsers' and libcurl's usual bound, enough for
    /// any real chain and short enough to stop a loop early.
    public static let maximumRedirects = 10

    /// Follow redirects, stripping only ``alwaysSensitiveHeaders`` across origins.
    public static let `default` = RedirectPolicy()
    /// Never follow: hand the 3xx response back.
    public static let never = RedirectPolicy(follows: false)

    /// A policy that follows redirects or not, removing `sensitiveHeaders` as well as
    /// ``alwaysSensitiveHeaders`` when a redirect leaves the origin.
    public init(follows: Bool = true, sensitiveHeaders: Set<String> = [], sendsBodyAcrossOrigins: Bool = false) {
        self.follows = follows
        self.sensitiveHeaders = sensitiveHeaders
        self.sendsBodyAcrossOrigins = sendsBodyAcrossOrigins
    }

    /// What to do after `response` answered `request` (sent with `body`).
    enum Step {
        /// Not a redirect to follow: `response` is the response.
        case stop
        /// Send `request` with `body` next.
        case follow(URLRequest, body: TransportBody?)
        /// A redirect this policy will not follow, for `reason`.
        case refuse(reason: String)
    }

    /// The step after `response` answered `request`, which carried `body`; `alsoSensitive` are
    /// the client's own sensitive headers.
    func step(after response: HTTPResponse, to request: URLRequest, body: TransportBody?, alsoSensitive: Set<String> = []) -> Step {
        guard follows, [301, 302, 303, 307, 308].contains(response.statusCode),
              let location = response.value(forHeader: "Location"),
              let target = URL(string: location, relativeTo: response.url ?? request.url)?.absoluteURL
        else { return .stop }
        let scheme = target.scheme?.lowercased() ?? ""
        guard scheme == "http" || scheme == "https" else {
            return .refuse(reason: "it points to a \(scheme.isEmpty ? "scheme-less" : scheme) URL, and only http and https are followed")
        }
        // A host that could be read as two (a %00, a control character) is the server's doing:
        // said as a refused redirect, never sent.
        do throws(URLError) {
            _ = try CanonicalHost(target)
        } catch {
            return .refuse(reason: error.detail ?? "its host cannot be used")
        }
        var next = request
        next.url = target
        var nextBody = body
        let method = (request.httpMethod ?? "GET").uppercased()
        if response.statusCode == 303 && method != "HEAD" || [301, 302].contains(response.statusCode) && method == "POST" {
            next.httpMethod = "GET"
            next.setValue(nil, forHTTPHeaderField: "Content-Type")
            next.setValue(nil, forHTTPHeaderField: "Content-Length")
            nextBody = nil
        }
        if nextBody != nil {
            if request.url?.scheme?.lowercased() == "https" && scheme == "http" {
                return .refuse(reason: "it would send the request's body from https to http")
            }
            if !sendsBodyAcrossOrigins, !Origin.same(request.url, target) {
                return .refuse(reason: "it would send the request's body to another origin (set RedirectPolicy.sendsBodyAcrossOrigins to allow it)")
            }
        }
        return .follow(stripped(next, from: request, alsoSensitive: alsoSensitive), body: nextBody)
    }

    /// `proposed` without its credentials when it leaves the origin of `original`.
    func stripped(_ proposed: URLRequest, from original: URLRequest?, alsoSensitive: Set<String> = []) -> URLRequest {
        // Without the original request, the origin cannot be compared: strip, to be safe.
        guard !Origin.same(original?.url, proposed.url) else { return proposed }
        var request = proposed
        let sensitive = Self.alwaysSensitiveHeaders.union(sensitiveHeaders.union(alsoSensitive).map { $0.lowercased() })
        for name in request.allHTTPHeaderFields?.keys.map({ $0 }) ?? [] where sensitive.contains(name.lowercased()) {
            request.setValue(nil, forHTTPHeaderField: name)
        }
        return request
    }
}
