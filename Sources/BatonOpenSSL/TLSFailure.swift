/// A TLS failure as OpenSSL reports it, before it is put into a sentence for a user: what went
/// wrong, in OpenSSL's words, and enough to tell one kind from another.
package struct TLSFailure: Error, Sendable, CustomStringConvertible {
    /// Where it went wrong.
    package enum Stage: Sendable, Equatable {
        /// Making a context: a certificate or key that OpenSSL refused.
        case setup
        /// The handshake: a protocol error, or a certificate that did not verify.
        case handshake
        /// After the handshake: a record that did not decrypt, an alert from the peer.
        case transfer
    }

    package let stage: Stage
    /// OpenSSL's reason, as in `unsupported protocol` or `tlsv1 alert protocol version`, with
    /// what was being done.
    package let message: String
    /// OpenSSL's reason strings from its error queue, lowercase, for telling kinds apart.
    package let reasons: [String]

    package init(_ stage: Stage, _ message: String, reasons: [String] = []) {
        self.stage = stage
        self.message = message
        self.reasons = reasons
    }

    package var description: String { message }

    /// A failure of `stage`: `what`, followed by the reasons on this thread's OpenSSL error
    /// queue (which is emptied).
    static func fromQueue(_ functions: OpenSSLFunctions, _ stage: Stage, _ what: String) -> TLSFailure {
        let reasons = ErrorQueue.drain(functions)
        let message = reasons.isEmpty ? what : "\(what) (\(reasons.joined(separator: "; ")))"
        return TLSFailure(stage, message, reasons: reasons)
    }

    /// OpenSSL's functions, or a setup failure saying why there are none.
    static func requireOpenSSL() throws(TLSFailure) -> OpenSSLFunctions {
        switch OpenSSL.loaded {
        case .success(let functions): return functions
        case .failure(let unavailable): throw TLSFailure(.setup, "OpenSSL cannot be used: \(unavailable.reason)")
        }
    }
}

/// This thread's OpenSSL error queue.
enum ErrorQueue {
    /// The reasons on the queue, oldest first, emptying it.
    static func drain(_ functions: OpenSSLFunctions) -> [String] {
        var reasons: [String] = []
        while true {
            let code = functions.ERR_get_error()
            guard code != 0 else { break }
            if let reason = functions.ERR_reason_error_string(code) {
                reasons.append(String(cString: reason))
            } else {
                var text = [CChar](repeating: 0, count: 256)
                functions.ERR_error_string_n(code, &text, text.count)
                reasons.append(String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
            }
        }
        return reasons
    }
}
