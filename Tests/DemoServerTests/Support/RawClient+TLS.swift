import BatonOpenSSL
import DemoServer
import Foundation

/// ``RawClient`` over TLS: the same exact bytes, through a TLS session that trusts the loopback
/// test root (`DemoServer.TLS.loopbackRootCertificatePEM`), on the same blocking socket.
extension RawClient {
    enum TLSSetupFailure: Error {
        case rootNotPEM
        case handshake(String)
    }

    /// Runs a TLS handshake with the server for `host`; every send and read goes through TLS after it.
    func startTLS(host: String = "127.0.0.1") throws {
        let context = try TLSContext(clientTrusting: [try Self.loopbackRootDER()])
        let session = try TLSSession(client: context, host: host)
        while true {
            switch session.handshake() {
            case .done:
                guard flushTLS(session) else { throw TLSSetupFailure.handshake("the server closed the connection") }
                tls = session
                return
            case .needsInput:
                guard flushTLS(session) else { throw TLSSetupFailure.handshake("the server closed the connection") }
                let bytes = try receiveRaw()
                guard !bytes.isEmpty else { throw TLSSetupFailure.handshake("the server closed the connection") }
                bytes.withUnsafeBytes { session.feed($0) }
            case .failed(let failure):
                throw TLSSetupFailure.handshake(failure.message)
            }
        }
    }

    /// Encrypts and sends every byte; false if the server had already closed the connection.
    func sendTLS(_ bytes: [UInt8]) -> Bool {
        guard let tls else { return false }
        let written = bytes.withUnsafeBytes { plain in
            do {
                try tls.write(plain)
                return true
            } catch {
                return false
            }
        }
        return written && flushTLS(tls)
    }

    /// The next plain bytes; none when the server closed the connection or sent `close_notify`.
    func receiveTLS() throws -> [UInt8] {
        guard let tls else { return [] }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            switch buffer.withUnsafeMutableBytes({ tls.read(into: $0) }) {
            case .read(let count):
                return Array(buffer[0..<count])
            case .closed:
                return []
            case .failed(let failure):
                throw TLSSetupFailure.handshake(failure.message)
            case .needsInput:
                guard flushTLS(tls) else { return [] }
                let bytes = try receiveRaw()
                guard !bytes.isEmpty else { return [] }
                bytes.withUnsafeBytes { tls.feed($0) }
            }
        }
    }

    /// Sends the session's waiting encrypted bytes.
    func flushTLS(_ session: TLSSession) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 32 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { session.takeOutput(into: $0) }
            guard count > 0 else { return true }
            guard sendRaw(Array(buffer[0..<count])) else { return false }
        }
    }

    /// The loopback test root, DER.
    private static func loopbackRootDER() throws -> [UInt8] {
        let base64 = DemoServer.TLS.loopbackRootCertificatePEM.split(separator: "\n")
            .filter { !$0.hasPrefix("-----") }.joined()
        guard let der = Data(base64Encoded: base64) else { throw TLSSetupFailure.rootNotPEM }
        return Array(der)
    }
}
