import Foundation

/// How ``Client/download(_:to:options:)`` keeps a download that did not finish.
///
/// Within one call, a download cut short is always taken up where it stopped when the retry
/// policy sends it again (see ``Client/download(_:to:options:)``). These options go further.
///
/// A struct, so that options can be added without breaking anyone's code.
public struct DownloadOptions: Sendable {
    /// Whether what arrived of a download that failed, or was cancelled, is kept beside its
    /// destination (at ``partialFile(for:)``, with a small record of its validator), for a later
    /// call, in this process or after a restart, to go on from rather than start over. Default
    /// `false`: a call that fails leaves nothing behind. The kept files go once a call to the same
    /// destination succeeds, or with ``removePartialFile(for:)``.
    public var keepsPartialFile = false
    /// Whether each request asks the server to name the file's SHA-256 (`Want-Repr-Digest`,
    /// RFC 9530), which the download is then checked against once whole. Default `true`. A
    /// digest a server names unasked is checked either way; `false` spares the server the asking,
    /// and the client the hashing, where the server would otherwise compute it.
    public var asksForDigest = true

    /// The defaults.
    public init() {}

    /// Where a kept download to `destination` waits: `<destination>.partial`, its record
    /// `<destination>.partial.json` beside it.
    public static func partialFile(for destination: URL) -> URL {
        destination.deletingLastPathComponent().appending(path: destination.lastPathComponent + ".partial")
    }

    /// Removes what is kept of a download to `destination`, if anything.
    public static func removePartialFile(for destination: URL) {
        try? FileManager.default.removeItem(at: partialFile(for: destination))
        try? FileManager.default.removeItem(at: record(for: destination))
    }

    /// The record of a kept download to `destination`.
    static func record(for destination: URL) -> URL {
        destination.deletingLastPathComponent().appending(path: destination.lastPathComponent + ".partial.json")
    }
}
