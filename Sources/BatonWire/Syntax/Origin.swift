import Foundation

/// Where a URL points, as far as trust goes (RFC 6454): its scheme, lower-cased, its
/// ``CanonicalHost``, and its port, the scheme's default when the URL names none. `HTTP://Host:80/a` and `http://host/b` are
/// one origin; `http://host:8080/` and `https://host/` are two others.
///
/// Credentials, bodies and an app's headers go to the origin they were meant for and no other:
/// a redirect that leaves an origin drops them, an authenticator sends its token to one origin,
/// and the image loader gives an app's client settings only to images on the client's origin.
/// Every one of those asks this type, so that they all agree on what "the same origin" is.
package struct Origin: Hashable, Sendable, CustomStringConvertible {
    package let scheme: String
    /// The host's ``CanonicalHost/name``: an IPv6 address without brackets.
    package let host: String
    /// The port, or `nil` for a scheme with no default port and none named.
    package let port: Int?

    /// The origin of `url`; `nil` when it has no scheme, no host, or a host ``CanonicalHost``
    /// refuses (which is then of no origin, so never the same as another).
    package init?(_ url: URL?) {
        guard let url, let scheme = url.scheme?.lowercased(), let host = try? CanonicalHost(url) else { return nil }
        self.scheme = scheme
        self.host = host.name
        port = url.port ?? Self.defaultPort(of: scheme)
    }

    /// Whether `a` and `b` are of one origin; never when either has none (a URL without a host).
    package static func same(_ a: URL?, _ b: URL?) -> Bool {
        guard let a = Origin(a) else { return false }
        return a == Origin(b)
    }

    /// The origin as a URL's beginning, `scheme://host`, with `:port` unless it is the scheme's
    /// default (RFC 6454 §6.2).
    package var description: String {
        // An IPv6 address is written in brackets in a URL.
        let host = self.host.contains(":") ? "[\(self.host)]" : self.host
        let port = self.port.flatMap { $0 == Self.defaultPort(of: scheme) ? nil : ":\($0)" } ?? ""
        return "\(scheme)://\(host)\(port)"
    }

    /// The root of the origin, `scheme://host:port/`, as a base URL.
    package var root: URL? { URL(string: "\(self)/") }

    private static func defaultPort(of scheme: String) -> Int? {
        switch scheme {
        case "http": return 80
        case "https": return 443
        default: return nil
        }
    }
}
