import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import BatonWire

/// The temporary file a download's body is written to.
enum DownloadFile {
    /// A new empty file in the system's temporary folder, made as ``PrivateFile`` makes files
    /// (readable by this user only, from the start, never through a symbolic link), open for
    /// writing; `nil` when it cannot be made.
    static func open() -> (url: URL, handle: FileHandle)? {
        let url = location()
        guard let descriptor = try? PrivateFile.create(url.path) else { return nil }
        return (url, FileHandle(fileDescriptor: descriptor, closeOnDealloc: true))
    }

    /// A new empty file, as ``open()`` makes it, closed: for a body with no bytes.
    static func make() -> URL? {
        guard let (url, handle) = open() else { return nil }
        try? handle.close()
        return url
    }

    /// A new name in the system's temporary folder, for a download's file, not yet made.
    static func location() -> URL {
        FileManager.default.temporaryDirectory.appending(path: "baton-download-\(UUID().uuidString).part")
    }
}
