/// Why the parser refused a request: the status to answer and a reason for the error body.
///
/// Every such response closes the connection, since the parser can no longer tell where the next
/// request would begin.
struct HTTPParseError: Error, Equatable, Sendable {
    var status: Int
    var message: String

    static func badRequest(_ message: String) -> HTTPParseError {
        HTTPParseError(status: 400, message: message)
    }

    static let headersTooLarge = HTTPParseError(status: 431, message: "header block larger than 64 KiB")
    static let payloadTooLarge = HTTPParseError(status: 413, message: "body larger than the server accepts")
    static let versionNotSupported = HTTPParseError(status: 505, message: "only HTTP/1.0 and HTTP/1.1 are served")
    static let expectationFailed = HTTPParseError(status: 417, message: "only 100-continue can be expected")
    static let timeout = HTTPParseError(status: 408, message: "request incomplete when the idle timeout passed")
}
