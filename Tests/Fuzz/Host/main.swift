// A libFuzzer target for Baton's one spelling of a host (Sources/BatonWire/Syntax/CanonicalHost).
// Each input is a host as a server or a page could write it: read percent-encoded byte by byte
// into a URL, and as it is. Whatever it holds, making the host must never trap; a host it gives
// must hold only the characters of a host name or address (never a NUL, a control character or a
// `%`), must be its own spelling again (made from its name or its URI form, it is the same), must
// be what an origin of the URL names, and an address must be one the system reads as such.
import BatonWire
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

private let hostCharacters = Set("abcdefghijklmnopqrstuvwxyz0123456789-_.:".unicodeScalars)

private func checkSpelling(_ host: CanonicalHost, from source: String) {
    check(!host.name.isEmpty, "an empty host from \(source.debugDescription)")
    check(host.name.unicodeScalars.allSatisfy(hostCharacters.contains), "\(host.name.debugDescription) from \(source.debugDescription)")
    check((try? CanonicalHost(parsing: host.name))?.name == host.name, "\(host.name) is not its own spelling")
    check((try? CanonicalHost(parsing: host.uriForm))?.name == host.name, "\(host.uriForm) is not \(host.name)")
    if host.isIPAddress {
        var v4 = in_addr(), v6 = in6_addr()
        check(inet_pton(AF_INET, host.name, &v4) == 1 || inet_pton(AF_INET6, host.name, &v6) == 1, "\(host.name) is no address")
    } else {
        check(!host.name.hasSuffix(".") && !host.name.contains(".."), "\(host.name) has an empty label")
        check(host.name.utf8.count <= CanonicalHost.maximumLength, "\(host.name) is too long")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let encoded = bytes.map { byte -> String in
        let scalar = Unicode.Scalar(byte)
        let plain = (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x2E || byte == 0x2D
        return plain ? String(Character(scalar)) : String(format: "%%%02X", byte)
    }.joined()
    let bracketed = size > 0 && bytes.first == UInt8(ascii: "[")
    for text in ["http://\(encoded):8080/p", bracketed ? "http://\(String(decoding: bytes, as: UTF8.self))/p" : nil].compactMap({ $0 }) {
        guard let url = URL(string: text) else { continue }
        if let host = try? CanonicalHost(url) {
            checkSpelling(host, from: text)
            check(Origin(url)?.host == host.name, "the origin of \(text) names another host")
        } else {
            check(Origin(url) == nil, "\(text) has an origin but no host")
        }
    }
    let raw = String(decoding: bytes, as: UTF8.self)
    if let host = try? CanonicalHost(parsing: raw) { checkSpelling(host, from: raw) }
    return 0
}
