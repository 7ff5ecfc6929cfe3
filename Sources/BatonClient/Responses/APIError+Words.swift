import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import BatonWire

// The words an APIError's sentence is made of: sizes as a limit someone set reads, and what a
// transport's URLError means.

extension APIError {
    /// `32 MiB`, `512 KiB`, or `1000 bytes`: exact, as a limit someone set should read.
    static func describe(bytes: Int) -> String {
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return bytes == 1 ? "1 byte" : "\(bytes) bytes"
    }

    static func describe(_ error: URLError) -> String {
        let name: String
        switch error.code {
        case .timedOut: name = "the request timed out"
        case .cannotConnectToHost: name = "could not connect to the host"
        case .cannotFindHost: name = "the host name did not resolve"
        case .networkConnectionLost: name = "the connection was lost"
        case .notConnectedToInternet: name = "there is no network connection"
        case .badServerResponse: name = "the server's response was not valid HTTP"
        case .cannotDecodeContentData: name = "the response's content coding could not be undone"
        case .unsupportedURL: name = "the transport cannot use the URL"
        case .userAuthenticationRequired: name = "credentials were asked for or refused"
        case .secureConnectionFailed: name = "the TLS connection failed"
        case .serverCertificateHasBadDate, .serverCertificateNotYetValid, .serverCertificateUntrusted, .serverCertificateHasUnknownRoot:
            name = "the server's certificate was refused"
        case .badURL: name = "the URL is not valid"
        default: name = "URLError \(error.code.rawValue)"
        }
        // Baton's own transport says what happened, such as what was wrong with a response.
        let detail = error.detail.map { ": \(MessageText.escaped(String($0.prefix(300))))" } ?? ""
        return "\(name)\(detail) (URLError.Code \(error.code.rawValue))"
    }
}
