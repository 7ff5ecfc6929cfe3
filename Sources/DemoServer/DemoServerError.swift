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
    /// The `errno` value the operation reported; 0 when the failure was not a system call's.
    public let code: Int32
    /// The reason, when it is not an `errno` (TLS set-up refused by OpenSSL).
    private let reason: String?

    init(operation: String, errno code: Int32) {
        self.operation = operation
        self.code = code
        reason = nil
    }

    init(operation: String, reason: String) {
        self.operation = operation
        code = 0
        self.reason = reason
    }

    /// `DemoServer could not <operation>: <reason> (errno N)`.
    public var description: String {
        if let reason { return "DemoServer could not \(operation): \(reason)" }
        let reason = strerror(code).map { String(cString: $0) } ?? "unknown error"
        return "DemoServer could not \(operation): \(reason) (errno \(code))"
    }
}
