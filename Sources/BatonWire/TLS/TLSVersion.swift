/// A TLS protocol version.
public struct TLSVersion: Hashable, Sendable, CustomStringConvertible {
    private let name: String

    /// TLS 1.2 (RFC 5246).
    public static let v1_2 = TLSVersion(name: "TLS 1.2")
    /// TLS 1.3 (RFC 8446).
    public static let v1_3 = TLSVersion(name: "TLS 1.3")

    /// As in `TLS 1.2`.
    public var description: String { name }
}
