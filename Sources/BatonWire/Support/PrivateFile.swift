import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How Baton makes and reopens the files it writes what it receives into (downloads, their kept
/// partial files, spooled bodies, the stores' temporary files): with POSIX calls, so that a file
/// is never readable by others, not even for a moment, and nothing is ever written through a
/// symbolic link someone else put where Baton's file was to be.
package enum PrivateFile {
    /// Why a file could not be made or opened: a sentence naming it.
    package struct Failure: LocalizedError, CustomStringConvertible {
        /// The file's path.
        package let path: String
        /// The system's `errno`.
        package let code: Int32
        /// What was at `path` that Baton refused to write to.
        package let refused: Refusal?

        package enum Refusal { case symbolicLink, notRegularFile, alreadyThere }

        /// As in `/tmp/a.bin.partial is a symbolic link; Baton will not write through it`.
        package var description: String {
            switch refused {
            case .symbolicLink: "\(path) is a symbolic link; Baton will not write through it"
            case .notRegularFile: "\(path) is not a regular file; Baton will not write to it"
            case .alreadyThere: "\(path) is there already; Baton will not write over it"
            case nil: "\(path) cannot be opened for writing (\(String(cString: strerror(code))))"
            }
        }

        /// The failure of an `open` of `path` that just failed, with `errno` read now: a
        /// symbolic link at `path` is named as such, whichever error `open` gave for it.
        package init(openFailedAt path: String) {
            let code = errno
            self.init(path: path, code: code, refused: Self.isSymbolicLink(path) ? .symbolicLink : code == EEXIST ? .alreadyThere : nil)
        }

        package var errorDescription: String? { description }

        package init(path: String, code: Int32, refused: Refusal?) {
            self.path = path
            self.code = code
            self.refused = refused
        }

        private static func isSymbolicLink(_ path: String) -> Bool {
            var info = stat()
            return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
        }
    }

    /// Makes a new, empty file at `path` and opens it for writing: the descriptor, which the
    /// caller closes.
    ///
    /// The file is made with mode 0600 whatever the process's umask: readable and writable by
    /// this user only, from the moment it exists. Anything already at `path` makes this fail and
    /// is left as it was: a file is never truncated or written over, and a symbolic link is never
    /// followed, not even to make the file it points to.
    package static func create(_ path: String) throws(Failure) -> Int32 {
        let descriptor = open(path, O_CREAT | O_EXCL | O_NOFOLLOW | O_WRONLY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Failure(openFailedAt: path) }
        // A umask narrower than 0077 takes bits from 0600 too (even the owner's write): the mode
        // is set outright, so that the file can be reopened to append.
        fchmod(descriptor, 0o600)
        return descriptor
    }

    /// Opens the regular file at `path` for writing, as it is (nothing is truncated): the
    /// descriptor, which the caller closes.
    ///
    /// A symbolic link at `path` is refused, never followed; so is anything but a regular file
    /// (a FIFO someone put there would hold the writer until it is read).
    package static func openExisting(_ path: String) throws(Failure) -> Int32 {
        // O_NONBLOCK: opening a FIFO for writing would otherwise wait for a reader.
        let descriptor = open(path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw Failure(openFailedAt: path) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw Failure(path: path, code: EINVAL, refused: .notRegularFile)
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        return descriptor
    }

    /// Throws if what is at `path` is a symbolic link; nothing there, or a file, passes. For a
    /// clear refusal before any work starts: the opening calls refuse a link that appears later.
    package static func refuseSymbolicLink(at path: String) throws(Failure) {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return }
        throw Failure(path: path, code: ELOOP, refused: .symbolicLink)
    }
}
