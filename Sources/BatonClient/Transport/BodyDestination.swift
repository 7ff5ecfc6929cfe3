import Foundation

/// Where a transport puts the body of a response: memory (most calls), a file (a download), or a
/// ``BodyStream`` (a server-sent event stream, a JSON lines stream). Carried by
/// ``TransferOptions/destination``, so that one field, read in one place, decides it.
///
/// A struct with static members, like Baton's other growable types, so that a destination can be
/// added without breaking a transport that switches on the ones it knows (through ``file`` and
/// ``stream``: a transport that knows neither keeps bodies in memory, and the client hands the
/// whole body on, more slowly but correctly).
public struct BodyDestination: Sendable, Equatable, CustomStringConvertible {
    private enum Place: Sendable {
        case memory
        case file(ResumableDownload)
        case stream(BodyStream)
    }

    private let place: Place

    /// The body is kept in memory, in ``HTTPResponse/body``, up to
    /// ``TransferOptions/maximumResponseSize``.
    public static let memory = BodyDestination(place: .memory)

    /// The body of a successful (2xx) response goes to `download`'s file as it arrives; other
    /// responses (an error's explanation) stay in memory, under the size limit. See
    /// ``ResumableDownload`` for what a transport does with it.
    public static func file(_ download: ResumableDownload) -> BodyDestination {
        BodyDestination(place: .file(download))
    }

    /// A body `stream` ``BodyStream/accepts(status:headers:)`` is handed to it piece by piece
    /// (``BodyStream/receive(_:canWait:)``) as it arrives, unbounded by the size limit (the
    /// stream bounds each element); any other body stays in memory.
    public static func stream(_ stream: BodyStream) -> BodyDestination {
        BodyDestination(place: .stream(stream))
    }

    /// The download a successful body goes to, or `nil` when it goes elsewhere.
    public var file: ResumableDownload? {
        if case .file(let download) = place { return download }
        return nil
    }

    /// The stream an accepted body goes to, or `nil` when it goes elsewhere.
    public var stream: BodyStream? {
        if case .stream(let stream) = place { return stream }
        return nil
    }

    /// `"memory"`, `"file"` or `"stream"`.
    public var description: String {
        switch place {
        case .memory: "memory"
        case .file: "file"
        case .stream: "stream"
        }
    }

    /// Whether `a` and `b` send bodies to the same place: memory, or the same file or stream.
    public static func == (a: BodyDestination, b: BodyDestination) -> Bool {
        switch (a.place, b.place) {
        case (.memory, .memory): true
        case (.file(let x), .file(let y)): x === y
        case (.stream(let x), .stream(let y)): x === y
        default: false
        }
    }
}
