import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import BatonWire

extension ResumableDownload {
    /// Puts the body of `response`, from the file a transport wrote it to or from memory, into
    /// the download's file, where its head says: what a transport that does not write into the
    /// file itself (URLSession's, a user's) hands back. Nothing is placed once the call is over.
    func adopt(_ response: HTTPResponse) throws {
        let placement = try accept(status: response.statusCode, headers: { response.value(forHeader: $0) })
        try whileCurrent {
            // A whole response in a file of its own becomes the download's file, in one step.
            if placement.offset == 0, let body = response.bodyFile, rename(body.path, file.path) == 0 { return }
            let output = FileHandle(fileDescriptor: try PrivateFile.openExisting(file.path), closeOnDealloc: true)
            defer { try? output.close() }
            try output.seek(toOffset: UInt64(placement.offset))
            guard let body = response.bodyFile else { return try output.write(contentsOf: response.body) }
            let input = try FileHandle(forReadingFrom: body)
            defer { try? input.close() }
            while let piece = try input.read(upToCount: 1 << 20), !piece.isEmpty { try output.write(contentsOf: piece) }
        }
    }

    /// Moves the whole, checked file to `destination`, replacing any file there; not once the
    /// call is over (cancelled as it finished: `destination` is left as it was).
    func move(to destination: URL) throws(URLError) {
        do {
            try whileCurrent {
                // rename(2) replaces the destination in one step, when both are on one file
                // system; across file systems the file is copied over instead.
                guard rename(file.path, destination.path) != 0 else { return }
                let files = FileManager.default
                if files.fileExists(atPath: destination.path) { try files.removeItem(at: destination) }
                try files.moveItem(at: file, to: destination)
            }
        } catch where error.code == .cancelled {
            throw error
        } catch {
            throw URLError(.cannotMoveFile, detail: "the download could not be moved to \(destination.path): \(error.detail ?? error.localizedDescription)")
        }
    }
}
