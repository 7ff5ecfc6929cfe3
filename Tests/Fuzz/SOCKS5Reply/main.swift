// A libFuzzer target for the reading of a SOCKS5 proxy's reply to CONNECT (RFC 1928 §6,
// Sources/BatonWire/Proxy/SOCKS5Handshake.swift). Each input is a proxy's bytes, read as the
// handshake reads them: the reply asks for a total length, the bytes up to it are given, and it is
// asked again. Whatever they hold, reading must never trap; it must ask for more than it has and
// never more than the longest reply (a 255-byte name), and must settle (success, a failure in
// words, or an error) on exactly the length it asked for, never reading past it.
import BatonWire
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The longest reply: 4 bytes, a name's length and 255 bytes of it, and the port.
private let longest = 4 + 1 + 255 + 2

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    var read: [UInt8] = []
    while true {
        let answer: SOCKS5Reply
        do {
            answer = try SOCKS5Reply.read(read, proxy: "proxy.test:1080")
        } catch {
            check(error.code == .badServerResponse, "an error of code \(error.code.rawValue)")
            check((error.detail ?? "").hasPrefix("the proxy proxy.test:1080 does not speak SOCKS5: "), "the sentence \(error.detail ?? "")")
            return 0
        }
        switch answer {
        case .needs(let total):
            check(total > read.count, "asked for \(total) bytes with \(read.count) read")
            check(total <= longest, "asked for \(total) bytes")
            guard input.count >= total else { return 0 }
            read = Array(input[0..<total])
        case .succeeded, .failed:
            check(read.count >= 7 && read.count <= longest, "settled on \(read.count) bytes")
            if case .failed(let reason) = answer { check(!reason.isEmpty && read[1] != 0, "a failure for code \(read[1])") }
            return 0
        }
    }
}
