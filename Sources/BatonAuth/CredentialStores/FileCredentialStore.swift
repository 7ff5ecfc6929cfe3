import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import BatonWire

/// Credentials saved as JSON in a file that only the user can read (mode 0600), so a session
/// survives a restart.
///
/// Each save writes a new file beside the old one and renames it over it, so a crash or a full
/// disk leaves the previous credentials whole, never half a file. The folder is created (mode
/// 0700) if it is missing. A file that exists but does not hold credentials is an error that
/// names it, never a silent logout.
///
/// ```swift
/// let store = FileCredentialStore(url: support.appending(path: "credentials.json"))
/// ```
///
/// - Note: On Apple platforms the Keychain is the better place for tokens: see ``CredentialStore``.
public final class FileCredentialStore: CredentialStore {
    /// The file the credentials are saved in.
    public let url: URL

    /// A store saving to `url`, a file URL.
    public init(url: URL) {
        self.url = url
    }

    /// The saved credentials, or `nil` if the file does not exist.
    ///
    /// - Throws: ``CredentialStoreError`` when the file cannot be read or does not hold credentials.
    public func load() throws -> Credentials? {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
            return nil
        } catch {
            throw CredentialStoreError(.unreadable, url: url, reason: "cannot be read (\(Self.reason(error)))")
        }
        do {
            return try JSONDecoder().decode(Credentials.self, from: data)
        } catch {
            throw CredentialStoreError(.corrupt, url: url, reason: "is corrupt: it does not hold credentials as Baton saves them")
        }
    }

    /// Saves `credentials`, atomically, in a file of mode 0600.
    ///
    /// - Throws: ``CredentialStoreError`` when the file cannot be written; the previous file, if
    ///   any, is left as it was and no temporary file remains.
    public func save(_ credentials: Credentials) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .deferredToDate
        let data: Data
        do {
            data = try encoder.encode(credentials)
        } catch {
            throw CredentialStoreError(.unwritable, url: url, reason: "cannot be written: the credentials do not encode (\(Self.reason(error)))")
        }
        let folder = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw CredentialStoreError(.unwritable, url: url, reason: "cannot be written: its folder cannot be created (\(Self.reason(error)))")
        }
        do {
            try AtomicFile.write(data, to: url.path, flush: true)
        } catch {
            throw CredentialStoreError(.unwritable, url: url, reason: "cannot be written (\(error.reason))")
        }
    }

    /// Deletes the file; does nothing if it does not exist.
    ///
    /// - Throws: ``CredentialStoreError`` when the file exists but cannot be deleted.
    public func clear() throws {
        guard unlink(url.path) == 0 || errno == ENOENT else {
            throw CredentialStoreError(.unwritable, url: url, reason: "cannot be deleted (\(String(cString: strerror(errno))))")
        }
    }

    private static func reason(_ error: any Error) -> String {
        error.localizedDescription
    }
}
