import BatonOpenSSL
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import BatonWire

/// The checks of a download's file once whole, and the digest that goes with it from one attempt
/// to the next.
extension ResumableDownload {
    /// Whether the response now filling the file names a digest, which the transport then computes.
    var wantsDigest: Bool { state.withLock(annotating: self) { $0.named != nil } }

    /// A cut transfer's digest, covering the first `covering` bytes of the file, for the next
    /// attempt to go on from.
    func keep(_ digest: DigestSHA256, covering: Int64) {
        state.withLock(annotating: self) { $0.partialDigest = (digest, covering) }
    }

    /// The digest kept of the first `count` bytes of the file, taken (once), if there is one.
    func takeDigest(covering count: Int64) -> DigestSHA256? {
        state.withLock(annotating: self) { state in
            defer { state.partialDigest = nil }
            return state.partialDigest.flatMap { $0.covering == count ? $0.digest : nil }
        }
    }

    /// The transport computed the whole file's SHA-256 as it wrote.
    func computed(_ digest: [UInt8]) {
        state.withLock(annotating: self) { $0.computed = digest }
    }

    /// Checks the file, once a response filled it: its size against the representation's length,
    /// its SHA-256 against the one named (computed now if the transport did not).
    ///
    /// - Throws: `URLError(.badServerResponse)` saying what is wrong; the file is emptied, so
    ///   the next attempt starts over.
    func verify() throws(URLError) {
        let (total, named, computed) = state.withLock(annotating: self) { ($0.total, $0.named, $0.computed) }
        let have = length
        if let total, have != total {
            startOver(because: "the file holds \(have) bytes, not the \(total) the server announced")
            throw URLError(.badServerResponse, detail: "the download holds \(have) bytes, not the \(total) the server announced")
        }
        guard let named else { return }
        guard let digest = computed ?? FileDigest.sha256(of: file)?.finish() else { return }
        guard digest == named else {
            startOver(because: "its SHA-256 is not the one the server named")
            throw URLError(.badServerResponse, detail: "the download's SHA-256 (\(RepresentationDigest.text(digest))) is not the one the server named (\(RepresentationDigest.text(named)))")
        }
    }
}
