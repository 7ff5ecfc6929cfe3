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
    /// Where the body goes: memory (the default), a download's file, or a stream. See
    /// ``BodyDestination``.
    public var destination: BodyDestination = .memory
    /// Where a transport that pools connections tells what happens to the connection carrying
    /// this request (opened, reused, closed), and later to it while it idles. `nil` (the
    /// default): nobody listens. Not compared by `==`: two options that differ only here ask the
    /// same transfer.
    public var connectionEvents: (@Sendable (ConnectionEvent) -> Void)?
    /// Where the transport marks the moments of the attempt only it sees (connected, secured,
    /// sent, first byte), for the call's timings; `nil` when nobody listens. Not compared by `==`.
    public var timer: TransferTimer?

    /// 32 MiB: far above any JSON response or photo, and low enough that a few dozen calls at once
    /// fit in a phone's memory. A client's default too
    /// (``Client/Configuration/defaultMaximumResponseSize``).
    public static let defaultMaximumResponseSize = 32 << 20

    /// Options with every value at its default unless given.
    public init(
        tracksDownloadProgress: Bool = false, maximumResponseSize: Int = defaultMaximumResponseSize,
        destination: BodyDestination = .memory
    ) {
        self.tracksDownloadProgress = tracksDownloadProgress
        self.maximumResponseSize = maximumResponseSize
        self.destination = destination
    }

    /// Whether `a` and `b` ask the same transfer (``connectionEvents`` and ``timer`` are not
    /// compared).
    public static func == (a: TransferOptions, b: TransferOptions) -> Bool {
        a.tracksDownloadProgress == b.tracksDownloadProgress && a.maximumResponseSize == b.maximumResponseSize
            && a.destination == b.destination
    }
}

extension TransferOptions {
    /// Whether the bytes received are reported as they arrive rather than once, complete: when
    /// asked for, and for a request with a body, whose bar follows the response too.
    func reportsEachPiece(sendingBody: Bool) -> Bool {
        tracksDownloadProgress || sendingBody
    }
}
