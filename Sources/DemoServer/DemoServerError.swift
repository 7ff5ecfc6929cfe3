#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a `DemoServer` could not start: the system call that failed and the system's reason.
///
/// Its description reads as a sentence, such as
/// `DemoServer could not bind 127.0.0.1:8080: Address already in use (errno 98)`.
public struct DemoServerError: Error, CustomStringConvertible, Sendable {
    /// The operation that failed, such as `bind 127.0.0.1:8080` or `pthread_create`.
    public let operation: String
    /// The `errno` value the operation reported.
    public let code: Int32

    init(operation: String, errno code: Int32) {
        self.operation = operation
        self.code = code
    }

    /// `DemoServer could not <operation>: <reason> (errno N)`.
    public var description: String {
        let reason = strerror(code).map { String(cString: $0) } ?? "unknown error"
        return "DemoServer could not \(operation): \(reason) (errno \(code))"
    }
}
