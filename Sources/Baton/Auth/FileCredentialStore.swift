import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
        let temporary = folder.appending(path: ".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        if let failure = Self.writeAtomically(data, to: temporary.path, replacing: url.path) {
            unlink(temporary.path)
            throw CredentialStoreError(.unwritable, url: url, reason: "cannot be written (\(failure))")
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

    /// Writes `data` to a new file at `temporary`, created with mode 0600 so that it is never
    /// readable by others, flushes it to disk, then renames it to `destination`. Returns why it
    /// failed, or `nil`.
    private static func writeAtomically(_ data: Data, to temporary: String, replacing destination: String) -> String? {
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else { return String(cString: strerror(errno)) }
        var failure: String?
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = String(cString: strerror(errno))
                    return
                }
                offset += written
            }
        }
        if failure == nil, fsync(descriptor) != 0 { failure = String(cString: strerror(errno)) }
        close(descriptor)
        if failure == nil, rename(temporary, destination) != 0 { failure = String(cString: strerror(errno)) }
        return failure
    }

    private static func reason(_ error: any Error) -> String {
        error.localizedDescription
    }
}
