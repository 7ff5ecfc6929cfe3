/// What a ``Transport`` is asked to do with one request besides sending it: how to report the
/// bytes that come back, and how many of them to keep.
///
/// A struct, so that new options can be added without breaking any transport: a transport that
/// does not know an option yet reads the ones it knows.
public struct TransferOptions: Sendable, Equatable {
    /// Report the response's bytes as they arrive rather than once, complete (see
    /// ``Endpoint/tracksDownloadProgress``). Default `false`.
    public var tracksDownloadProgress: Bool
    /// The largest response body, in bytes, that the transport keeps in memory, counted as it
    /// arrives after any `Content-Encoding` is undone (a small gzip body can inflate to gigabytes).
    /// Past it, or as soon as the response declares a longer `Content-Length`, the transport
    /// stops the transfer and rejects with `URLError(.dataLengthExceedsMaximum)`, which the
    /// client reports as ``APIError/Kind/responseTooLarge``. Default
    /// ``defaultMaximumResponseSize``.
    public var maximumResponseSize: Int
    /// Write the body of a successful (2xx) response to a temporary file, as it arrives, and
    /// name it in ``HTTPResponse/bodyFile``, instead of keeping it in memory: for downloads
    /// (``Client/download(_:to:)``), which ``maximumResponseSize`` does not bound. Other answers
    /// (an error's explanation) stay in memory, under the limit. Default `false`.
    public var downloadsToFile: Bool
    /// Where a transport that pools connections tells what happens to the connection carrying
    /// this request (opened, reused, closed), and later to it while it idles. `nil` (the
    /// default): nobody listens. Not compared by `==`: two options that differ only here ask the
    /// same transfer.
    public var connectionEvents: (@Sendable (ConnectionEvent) -> Void)?
    /// Where the body of a streamed answer goes as it arrives (``Client/events(_:options:each:)``,
    /// ``Client/lines(_:options:each:)``), instead of memory: an answer it
    /// ``BodyStream/accepts(status:headers:)`` is handed to it piece by piece, and
    /// ``maximumResponseSize`` does not bound it (the stream bounds each element). `nil` (the
    /// default): no streaming. Compared by identity.
    public var bodyStream: BodyStream?
    /// Where a transport of Baton's marks the moments of the attempt only it sees, for the call's
    /// timings; `nil` when nobody listens (a client without monitors). Not compared by `==`.
    var timer: TransferTimer?
    /// The file a download goes into, over as many attempts as it takes, when the transport
    /// writes downloads itself; `nil` otherwise. Not compared by `==`.
    var resumable: ResumableDownload?

    /// 32 MiB: far above any JSON answer or photo, and low enough that a few dozen calls at once
    /// fit in a phone's memory. A client's default too
    /// (``Client/Configuration/defaultMaximumResponseSize``).
    public static let defaultMaximumResponseSize = 32 << 20

    /// Options with every value at its default unless given.
    public init(
        tracksDownloadProgress: Bool = false, maximumResponseSize: Int = defaultMaximumResponseSize,
        downloadsToFile: Bool = false
    ) {
        self.tracksDownloadProgress = tracksDownloadProgress
        self.maximumResponseSize = maximumResponseSize
        self.downloadsToFile = downloadsToFile
    }

    /// Whether `a` and `b` ask the same transfer (``connectionEvents`` is not compared).
    public static func == (a: TransferOptions, b: TransferOptions) -> Bool {
        a.tracksDownloadProgress == b.tracksDownloadProgress && a.maximumResponseSize == b.maximumResponseSize
            && a.downloadsToFile == b.downloadsToFile && a.bodyStream === b.bodyStream
    }
}
