#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a peer's certificate says that a failure's sentence needs: when it is valid, which
/// names it is for, who issued it.
package struct PeerCertificate: Sendable {
    /// The start and end of its validity, in seconds since 1970 (UTC).
    package var notBefore: Double?
    package var notAfter: Double?
    /// The DNS names and IP addresses it is for (subjectAltName), or its common name when it
    /// has none.
    package var names: [String]
    /// Its subject's and its issuer's common names.
    package var subject: String?
    package var issuer: String?

    init(_ certificate: OpaquePointer, functions: OpenSSLFunctions) {
        notBefore = Self.seconds(functions.X509_get0_notBefore(certificate), functions)
        notAfter = Self.seconds(functions.X509_get0_notAfter(certificate), functions)
        subject = Self.commonName(functions.X509_get_subject_name(certificate), functions)
        issuer = Self.commonName(functions.X509_get_issuer_name(certificate), functions)
        let alternatives = Self.alternativeNames(certificate, functions)
        names = alternatives.isEmpty ? subject.map { [$0] } ?? [] : alternatives
        functions.ERR_clear_error()
    }

    /// OpenSSL's words for the verification result `code`, as in `certificate revoked`.
    package static func verificationReason(_ code: Int) -> String {
        guard let functions = try? OpenSSL.functions(), let text = functions.X509_verify_cert_error_string(code) else {
            return "verification error \(code)"
        }
        return String(cString: text)
    }

    /// The SHA-256 of `certificate`'s DER SubjectPublicKeyInfo: what a key pin names.
    static func publicKeyDigest(_ certificate: OpaquePointer, functions: OpenSSLFunctions) -> [UInt8]? {
        let key = functions.X509_get_X509_PUBKEY(certificate)
        let length = functions.i2d_X509_PUBKEY(key, nil)
        guard length > 0 else { return nil }
        var der = [UInt8](repeating: 0, count: Int(length))
        der.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress
            _ = functions.i2d_X509_PUBKEY(key, &cursor)
        }
        var digest = [UInt8](repeating: 0, count: 32)
        _ = functions.SHA256(der, der.count, &digest)
        return digest
    }

    private static func seconds(_ time: OpaquePointer?, _ functions: OpenSSLFunctions) -> Double? {
        guard let time else { return nil }
        var parts = tm()
        guard functions.ASN1_TIME_to_tm(time, &parts) == 1 else { return nil }
        return Double(timegm(&parts))
    }

    private static func commonName(_ name: OpaquePointer?, _ functions: OpenSSLFunctions) -> String? {
        guard let name else { return nil }
        var text = [CChar](repeating: 0, count: 256)
        let length = functions.X509_NAME_get_text_by_NID(name, 13 /* NID_commonName */, &text, Int32(text.count))
        guard length > 0 else { return nil }
        return String(decoding: text.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The subjectAltName's DNS names and IP addresses, in order.
    private static func alternativeNames(_ certificate: OpaquePointer, _ functions: OpenSSLFunctions) -> [String] {
        guard let list = functions.X509_get_ext_d2i(certificate, 85 /* NID_subject_alt_name */, nil, nil) else { return [] }
        defer { functions.OPENSSL_sk_pop_free(list, functions.GENERAL_NAME_free) }
        var names: [String] = []
        for index in 0..<functions.OPENSSL_sk_num(list) {
            // A GENERAL_NAME is { int type; union { ASN1_STRING *... } d; }: the pointer follows
            // the int at pointer alignment.
            guard let entry = functions.OPENSSL_sk_value(list, index) else { continue }
            // The type first: only a dNSName's and an iPAddress's value is an ASN1_STRING. The
            // others (otherName, directoryName, ...) point to structures of their own, whose
            // bytes read as a string's would give a length and data that are not there.
            let type = entry.load(as: Int32.self)
            guard type == 2 /* GEN_DNS */ || type == 7 /* GEN_IPADD */ else { continue }
            let value = entry.load(fromByteOffset: MemoryLayout<UnsafeRawPointer>.stride, as: OpaquePointer?.self)
            guard let value, let data = functions.ASN1_STRING_get0_data(value) else { continue }
            let length = functions.ASN1_STRING_length(value)
            guard length >= 0 else { continue }
            let bytes = UnsafeBufferPointer(start: data, count: Int(length))
            if type == 2 {
                names.append(String(decoding: bytes, as: UTF8.self))
            } else if let address = address(bytes) {
                names.append(address)
            }
            if names.count == 20 { break }
        }
        return names
    }

    private static func address(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        var text = [CChar](repeating: 0, count: 64)
        let family = bytes.count == 4 ? AF_INET : AF_INET6
        guard inet_ntop(family, bytes.baseAddress, &text, socklen_t(text.count)) != nil else { return nil }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
