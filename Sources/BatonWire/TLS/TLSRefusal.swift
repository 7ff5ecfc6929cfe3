import BatonOpenSSL
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A failed handshake as a `URLError` whose detail says what was wrong, naming the server: a
/// certificate expired (since when), not yet valid (until when), for other names (which), not
/// trusted (self-signed, or from an authority not trusted here), or no protocol in common.
package enum TLSRefusal {
    package static func error(for failure: TLSFailure, session: TLSSession, host: String, server: String, minimumVersion: TLSVersion) -> URLError {
        let verification = session.verifyResult
        if verification != 0 {
            return certificateError(verification, chain: session.presentedChain, host: host, server: server)
        }
        let reasons = failure.reasons.joined(separator: "; ")
        let said = reasons.isEmpty ? "" : " (OpenSSL: \(reasons))"
        if failure.reasons.contains(where: { $0.contains("protocol version") || $0.contains("unsupported protocol") || $0.contains("no protocols available") }) {
            return URLError(.secureConnectionFailed, detail:
                "\(server) and Baton share no TLS version (Baton accepts \(minimumVersion) or later)\(said)")
        }
        if failure.reasons.contains(where: { $0.contains("wrong version number") || $0.contains("packet length too long") || $0.contains("record layer failure") }) {
            return URLError(.secureConnectionFailed, detail:
                "\(server) did not answer in TLS (is it a plain http port?)\(said)")
        }
        if failure.reasons.contains(where: { $0.contains("no shared cipher") || $0.contains("handshake failure") || $0.contains("no suitable") }) {
            return URLError(.secureConnectionFailed, detail: "\(server) and Baton share no cipher suite or key type\(said)")
        }
        return URLError(.secureConnectionFailed, detail: "the TLS handshake with \(server) failed\(said)")
    }

    /// The sentence for OpenSSL's verification result `code` (an `X509_V_ERR_*` value), about
    /// the `chain` the server presented (its own certificate first).
    package static func certificateError(_ code: Int, chain: [PeerCertificate], host: String, server: String) -> URLError {
        let subject = "the certificate of \(server)"
        let certificate = chain.first
        let fix = "trust its root with TLSConfiguration.trustRoots, if it is yours"
        switch code {
        case 10:
            return URLError(.serverCertificateHasBadDate, detail:
                "\(subject) expired" + (certificate?.notAfter.map { " on \(date($0))" } ?? "") + (certificate?.notAfter == nil ? " (or one of its chain's)" : ""))
        case 9:
            return URLError(.serverCertificateNotYetValid, detail:
                "\(subject) is not valid yet" + (certificate?.notBefore.map { ": it is valid from \(date($0))" } ?? ""))
        case 62, 64:
            let names = certificate.map { $0.names.isEmpty ? "no name" : list($0.names) } ?? "other names"
            return URLError(.serverCertificateUntrusted, detail: "\(subject) is for \(names), not for \(host)")
        case 18:
            return URLError(.serverCertificateUntrusted, detail:
                "\(subject) is self-signed, and not trusted (trust the certificate itself with TLSConfiguration.trustRoots, if it is yours)")
        case 19:
            return URLError(.serverCertificateHasUnknownRoot, detail:
                "\(subject) chains to a root that is not trusted\(issuer(chain.last)) (\(fix))")
        case 2, 20, 21:
            return URLError(.serverCertificateHasUnknownRoot, detail:
                "\(subject) was issued by an authority that is not trusted\(issuer(chain.last)) (\(fix))")
        default:
            return URLError(.serverCertificateUntrusted, detail: "\(subject) did not verify: \(PeerCertificate.verificationReason(code))")
        }
    }

    private static func issuer(_ certificate: PeerCertificate?) -> String {
        certificate?.issuer.map { ": \"\(MessageText.escaped($0))\"" } ?? ""
    }

    /// `a`, `a and b`, `a, b and c`.
    private static func list(_ names: [String]) -> String {
        let escaped = names.map { MessageText.escaped($0) }
        guard escaped.count > 1 else { return escaped.first ?? "" }
        return escaped.dropLast().joined(separator: ", ") + " and " + escaped.last!
    }

    /// As in `2021-01-01 00:00:00 UTC`.
    private static func date(_ seconds: Double) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss 'UTC'"
        return formatter.string(from: Date(timeIntervalSince1970: seconds))
    }
}
