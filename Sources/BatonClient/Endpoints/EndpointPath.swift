import Foundation
import BatonWire

/// A path relative to the client's base URL, in which every interpolated value is one path
/// segment.
///
/// Write it as a string literal; literal text is taken as it is, and each interpolated value is
/// percent-encoded so that it stays a single segment:
///
/// ```swift
/// let path: EndpointPath = "facilities/\(facilityID)/reviews"
/// let odd: EndpointPath = "orders/\("../admin?x=1")"   // orders/..%2Fadmin%3Fx=1
/// ```
///
/// A value containing `/`, `?`, `#`, `%`, `;`, spaces or non-ASCII text is escaped, so no value
/// can change which resource is addressed. A value that is empty, `.` or `..` cannot be made safe
/// by escaping (servers that decode `%2E` or merge slashes would still walk the path), so
/// ``Client/send(_:)`` refuses it with an ``APIError`` of kind ``APIError/Kind/invalidRequest``,
/// nothing sent. Literal text keeps its `/` separators and any `%XX` escapes it already has; other
/// characters a path cannot hold (spaces, non-ASCII) are escaped. A literal `?` or `#` makes
/// ``Client/send(_:)`` fail with an ``APIError`` of kind ``APIError/Kind/invalidRequest``: query items belong
/// in ``Endpoint/query``.
public struct EndpointPath: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringInterpolation {
    /// The percent-encoded path, without a leading `/`.
    public let encoded: String
    /// Why a segment made from a value cannot be sent (it is empty, `.` or `..`), if one cannot.
    let refusal: String?

    /// A path from literal text: `/` and valid `%XX` escapes are kept, characters a path cannot hold are
    /// escaped, and leading `/`s are dropped.
    public init(stringLiteral value: String) {
        encoded = Self.trimmingLeadingSlashes(Self.encodeLiteral(value))
        refusal = nil
    }

    /// A path from an interpolated literal, each interpolated value escaped as one segment; leading `/`s
    /// are dropped.
    public init(stringInterpolation: Interpolation) {
        encoded = Self.trimmingLeadingSlashes(stringInterpolation.encoded)
        refusal = stringInterpolation.refusal
    }

    /// A path that arrives whole at run time, such as a `next` link or a photo's `url` a server
    /// sent: taken as a literal is (`/` separators and `%XX` escapes kept, leading `/`s dropped).
    /// To put a value of your own into a path, interpolate it instead (`"orders/\(id)"`), so that
    /// it stays one segment.
    ///
    /// ```swift
    /// client.send(Request<Data>(.get, EndpointPath(photo.url)))   // "/photos/12"
    /// ```
    public init(_ path: String) {
        self.init(stringLiteral: path)
    }

    /// A path made of `segments`, each percent-encoded as one segment.
    public init(segments: [String]) {
        encoded = Self.trimmingLeadingSlashes(segments.map(Self.encodeSegment).joined(separator: "/"))
        refusal = segments.lazy.compactMap(Self.refusal(ofSegment:)).first
    }

    /// The percent-encoded path, as in `facilities/12/reviews` (no leading `/`).
    public var description: String { encoded }

    /// Builds the encoded path as the literal is interpolated.
    public struct Interpolation: StringInterpolationProtocol {
        var encoded = ""
        var refusal: String?

        /// Starts an empty path, with room reserved for the literal's text and values.
        public init(literalCapacity: Int, interpolationCount: Int) {
            encoded.reserveCapacity(literalCapacity + interpolationCount * 8)
        }

        /// Appends literal text, escaped as for `init(stringLiteral:)`: `/` and `%XX` escapes are kept.
        public mutating func appendLiteral(_ literal: String) {
            encoded += EndpointPath.encodeLiteral(literal)
        }

        /// Appends `value` as one percent-encoded path segment.
        public mutating func appendInterpolation(_ value: some CustomStringConvertible) {
            let text = value.description
            encoded += EndpointPath.encodeSegment(text)
            if refusal == nil { refusal = EndpointPath.refusal(ofSegment: text) }
        }
    }

    /// Characters that stand for themselves in a segment (RFC 3986 `pchar` minus the ones that
    /// some servers treat specially).
    /// `;` is escaped too: some servers cut a segment at it (`..;/admin`).
    private static let segmentCharacters = ASCIISet.alphanumerics.adding("-._~!$&'()*+,=:@")

    static func encodeSegment(_ value: String) -> String {
        if value == "." { return "%2E" }
        if value == ".." { return "%2E%2E" }
        return segmentCharacters.percentEncoded(value)
    }

    /// Why `value` cannot be a segment, or `nil` when it can.
    static func refusal(ofSegment value: String) -> String? {
        switch value {
        case "": return "a value is empty, which would leave an empty segment (\"//\")"
        case ".", "..": return "a value is \"\(value)\", which would address another resource"
        default: return nil
        }
    }

    /// Literal path text made safe for a URL: `/`, valid `%XX` escapes, `?` and `#` stay (the
    /// last two for the request builder to refuse); everything a segment cannot hold is escaped.
    static func encodeLiteral(_ literal: String) -> String {
        if literalCharacters.containsAll(of: literal) { return literal }  // the usual literal
        let bytes = Array(literal.utf8)
        var encoded: [UInt8] = []
        encoded.reserveCapacity(bytes.count)
        for (index, byte) in bytes.enumerated() {
            let isEscape = byte == UInt8(ascii: "%") && index + 2 < bytes.count
                && ASCIISet.hexDigits.contains(bytes[index + 1]) && ASCIISet.hexDigits.contains(bytes[index + 2])
            if isEscape || literalCharacters.contains(byte) {
                encoded.append(byte)
            } else {
                ASCIISet.appendEscape(of: byte, to: &encoded)
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }

    /// What stands for itself in literal path text: a segment's characters and the separators.
    private static let literalCharacters = segmentCharacters.adding("/?#;")

    private static func trimmingLeadingSlashes(_ path: String) -> String {
        guard path.utf8.first == UInt8(ascii: "/") else { return path }
        return String(decoding: path.utf8.drop { $0 == UInt8(ascii: "/") }, as: UTF8.self)
    }
}
