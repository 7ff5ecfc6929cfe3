import Foundation

/// Certificates read from PEM text.
package enum PEMCertificates {
    /// The DER of each `CERTIFICATE` block in `text`, in order.
    package static func decode(_ text: String) throws(TLSConfigurationError) -> [Data] {
        let begin = "-----BEGIN CERTIFICATE-----", end = "-----END CERTIFICATE-----"
        var certificates: [Data] = []
        var rest = Substring(text)
        while let start = rest.range(of: begin) {
            guard let stop = rest.range(of: end, range: start.upperBound..<rest.endIndex) else {
                throw TLSConfigurationError("certificate \(certificates.count + 1) of the PEM text has no \"\(end)\" line")
            }
            let body = rest[start.upperBound..<stop.lowerBound].filter { !$0.isWhitespace }
            guard let der = Data(base64Encoded: String(body)), der.first == 0x30 else {
                throw TLSConfigurationError("certificate \(certificates.count + 1) of the PEM text is not a base64 DER certificate")
            }
            certificates.append(der)
            rest = rest[stop.upperBound...]
        }
        guard !certificates.isEmpty else {
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if !trimmed.contains("\n"), trimmed.hasPrefix("/") || trimmed.hasPrefix("~") || trimmed.hasSuffix(".pem") || trimmed.hasSuffix(".crt") {
                throw TLSConfigurationError("the PEM text holds no certificate: it looks like a file's path; read the file with trustRoots(contentsOf:)")
            }
            if text.contains("PRIVATE KEY-----") {
                throw TLSConfigurationError("the PEM text holds a private key, not a certificate (no \"\(begin)\" line)")
            }
            throw TLSConfigurationError("the PEM text holds no certificate (no \"\(begin)\" line)")
        }
        return certificates
    }
}
