/// SHA-256 fed a piece at a time, through OpenSSL's `SHA256_Init`, `SHA256_Update` and
/// `SHA256_Final` (deprecated in OpenSSL 3 in favour of `EVP_Digest*`, and still exported by
/// every OpenSSL 3): a download's digest, checked as its bytes arrive, at the speed of the
/// machine's SHA instructions.
///
// Unchecked: not safe to use from two threads at once, and never is. One thread feeds it; a
// download's digest is handed from a cut attempt's thread to the next attempt's through its
// `ResumableDownload`'s lock, after the first is done with it.
package final class DigestSHA256: @unchecked Sendable {
    private let functions: OpenSSLFunctions
    /// OpenSSL's `SHA256_CTX`: 112 bytes; more is reserved.
    private let context = UnsafeMutableRawPointer.allocate(byteCount: 256, alignment: 16)
    private var finished = false

    /// A new digest; `nil` where OpenSSL 3 cannot be loaded.
    package init?() {
        guard case .success(let functions) = OpenSSL.loaded else { return nil }
        self.functions = functions
        _ = functions.SHA256_Init(context)
    }

    deinit {
        context.deallocate()
    }

    /// Adds `bytes` to the digest.
    package func update(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty, !finished else { return }
        _ = functions.SHA256_Update(context, bytes.baseAddress, bytes.count)
    }

    /// The 32 bytes of the digest; the digest takes nothing more after.
    package func finish() -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        if !finished { _ = digest.withUnsafeMutableBufferPointer { functions.SHA256_Final($0.baseAddress!, context) } }
        finished = true
        return digest
    }
}
