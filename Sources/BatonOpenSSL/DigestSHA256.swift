/// SHA-256 fed a piece at a time: a download's digest, checked as its bytes arrive. Through
/// OpenSSL's `SHA256_Init`, `SHA256_Update` and `SHA256_Final` where they can be loaded (at the
/// speed of the machine's SHA instructions), else through ``SHA256``, in Swift, several times
/// slower: a digest can always be computed.
// Unchecked: not safe to use from two threads at once, and never is. One thread feeds it; a
// download's digest is handed from a cut attempt's thread to the next attempt's through its
// `ResumableDownload`'s lock, after the first is done with it.
package final class DigestSHA256: @unchecked Sendable {
    private enum Engine {
        /// OpenSSL's functions, and its `SHA256_CTX` (112 bytes; more is reserved).
        case openSSL(init: @convention(c) (UnsafeMutableRawPointer) -> Int32,
                     update: @convention(c) (UnsafeMutableRawPointer, UnsafeRawPointer?, Int) -> Int32,
                     final: @convention(c) (UnsafeMutablePointer<UInt8>, UnsafeMutableRawPointer) -> Int32,
                     context: UnsafeMutableRawPointer)
        case swift(SHA256)
    }

    private var engine: Engine
    /// The digest, once finished.
    private var result: [UInt8]?

    /// A new digest.
    package init() {
        if case .success(let functions) = OpenSSL.loaded, let initialize = functions.SHA256_Init,
           let update = functions.SHA256_Update, let final = functions.SHA256_Final {
            let context = UnsafeMutableRawPointer.allocate(byteCount: 256, alignment: 16)
            _ = initialize(context)
            engine = .openSSL(init: initialize, update: update, final: final, context: context)
        } else {
            engine = .swift(SHA256())
        }
    }

    deinit {
        if case .openSSL(_, _, _, let context) = engine { context.deallocate() }
    }

    /// Adds `bytes` to the digest.
    package func update(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty, result == nil else { return }
        switch engine {
        case .openSSL(_, let update, _, let context):
            _ = update(context, bytes.baseAddress, bytes.count)
        case .swift(var digest):
            digest.update(bytes)
            engine = .swift(digest)
        }
    }

    /// The 32 bytes of the digest; the digest takes nothing more after (asked again, it gives
    /// the same bytes).
    package func finish() -> [UInt8] {
        if let result { return result }
        let digest: [UInt8]
        switch engine {
        case .openSSL(_, _, let final, let context):
            var bytes = [UInt8](repeating: 0, count: 32)
            _ = bytes.withUnsafeMutableBufferPointer { final($0.baseAddress!, context) }
            digest = bytes
        case .swift(var swift):
            digest = swift.finalize()
        }
        result = digest
        return digest
    }
}
