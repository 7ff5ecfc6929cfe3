import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import BatonPromise

/// What the session delegate keeps of one task in flight, to report on it.
// Not a lock: after registration, `response`, `received`, `isOverLimit`, `download`,
// `unwritten` and `downloadFailed` are touched only on the session's serial delegate queue (one
// operation at a time), which orders every access.
final class TaskRecord: @unchecked Sendable {
    let bodyLength: Int64?
    /// The file a streamed body is read from, for URLSession to ask for a stream of it.
    let bodyFile: URL?
    let maximumResponseSize: Int
    /// Whether each piece of the response is reported as progress, or only the whole at the end.
    let reportsEachChunk: Bool
    let progress: @Sendable (PromiseProgress) -> Void
    let complete: @Sendable (Result<HTTPResponse, URLError>) -> Void
    var response: HTTPURLResponse?
    var received = Data()
    /// The response declared or delivered more than `maximumResponseSize`: its task was
    /// cancelled, and what arrived was dropped.
    var isOverLimit = false
    /// Whether a successful body goes to a file (see ``TransferOptions/downloadsToFile``).
    let downloadsToFile: Bool
    /// The file being written, for a download, and how much arrived for it.
    var download: (url: URL, handle: FileHandle, written: Int64)?
    /// Bytes of a download not yet written: pieces arrive some 16 KiB at a time, and are written
    /// a mebibyte at a time, which spares thousands of system calls a large download.
    var unwritten = Data()
    /// Writing the download failed: its task was cancelled.
    var downloadFailed = false
    /// Where a streamed response's body goes (see ``TransferOptions/bodyStream``).
    let bodyStream: BodyStream?
    /// Whether the response was accepted by `bodyStream`: `nil` until its first piece.
    var streams: Bool?
    /// Where the response's first byte is marked, for the call's timings.
    let timer: TransferTimer?

    init(
        body: TransportBody?,
        maximumResponseSize: Int,
        downloadsToFile: Bool = false,
        bodyStream: BodyStream? = nil,
        timer: TransferTimer? = nil,
        reportsEachChunk: Bool,
        progress: @escaping @Sendable (PromiseProgress) -> Void,
        complete: @escaping @Sendable (Result<HTTPResponse, URLError>) -> Void
    ) {
        self.bodyLength = body?.length
        self.bodyFile = body?.fileURL
        self.maximumResponseSize = maximumResponseSize
        self.downloadsToFile = downloadsToFile
        self.bodyStream = bodyStream
        self.timer = timer
        self.reportsEachChunk = reportsEachChunk
        self.progress = progress
        self.complete = complete
    }
}
