import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import BatonWire

/// A transport that keeps cookies of its own and adds them to the requests it sends: Baton's
/// transports say which, so that what depends on a request's credentials (a stored value's
/// revalidation) sees the cookies that will go with it, not only the fields the client set.
protocol CookieKeeping {
    /// The `Cookie` field the transport would add to a request to `url` that has none of its
    /// own; `nil` when it would add none.
    func cookieHeader(for url: URL) -> String?
}

extension HTTP1Transport: CookieKeeping {
    func cookieHeader(for url: URL) -> String? {
        cookies?.cookieHeader(for: url)
    }
}

extension URLSessionTransport: CookieKeeping {
    func cookieHeader(for url: URL) -> String? {
        guard let storage = session.configuration.httpCookieStorage, let cookies = storage.cookies(for: url), !cookies.isEmpty else { return nil }
        return HTTPCookie.requestHeaderFields(with: cookies)["Cookie"]
    }
}

extension DefaultTransport: CookieKeeping {
    func cookieHeader(for url: URL) -> String? {
        if let own = ownTransport, routesToHTTP1(scheme: url.scheme ?? "") { return own.cookieHeader(for: url) }
        return startedSession?.cookieHeader(for: url)
    }
}
