/// What was wrong with a server's HTTP/1.x response as it came over the wire: a head or a body
/// that breaks RFC 9112 (or RFC 9110's field syntax), goes past a ``ResponseLimits`` limit, or
/// ends when the server closes the connection too soon.
///
/// `kind` tells the cases apart in code; `description` is a sentence naming what was wrong, as
/// in `the server's response has two different Content-Length values (10 and 12)`. The sentences
/// are made by the factories in `WireError+Sentences.swift`.
package struct WireError: Error, Sendable, CustomStringConvertible, Equatable {
    /// What is wrong. Compare with `==`; new kinds may be added.
    package struct Kind: Hashable, Sendable, CustomStringConvertible {
        package let name: String

        // The status line (RFC 9112 §4).
        /// The first line is not `HTTP/1.x SP 3DIGIT [SP reason]` (HTTP/2 and later included).
        package static let invalidStatusLine = Kind(name: "invalidStatusLine")
        /// The status code is outside 100...599.
        package static let statusOutOfRange = Kind(name: "statusOutOfRange")
        /// The reason phrase holds a control byte.
        package static let invalidReasonPhrase = Kind(name: "invalidReasonPhrase")
        /// `101 Switching Protocols`, which Baton never asks for.
        package static let switchingProtocols = Kind(name: "switchingProtocols")

        // Lines and field lines, in the head or the trailers (RFC 9112 §2.2, §5; RFC 9110 §5).
        /// A CR not followed by LF.
        package static let bareCarriageReturn = Kind(name: "bareCarriageReturn")
        /// A line longer than `maximumLineBytes`.
        package static let lineTooLong = Kind(name: "lineTooLong")
        /// A head or trailer section larger than `maximumHeadBytes`.
        package static let headTooLarge = Kind(name: "headTooLarge")
        /// More fields than `maximumFieldCount`.
        package static let tooManyFields = Kind(name: "tooManyFields")
        /// A line starting with SP or HTAB: obsolete line folding, or whitespace before the
        /// first field.
        package static let obsoleteLineFolding = Kind(name: "obsoleteLineFolding")
        /// A field line without a colon.
        package static let missingColon = Kind(name: "missingColon")
        /// A field name that is empty or not a token.
        package static let invalidFieldName = Kind(name: "invalidFieldName")
        /// Whitespace between a field name and its colon.
        package static let whitespaceBeforeColon = Kind(name: "whitespaceBeforeColon")
        /// A field value holding NUL or another control byte.
        package static let invalidFieldValue = Kind(name: "invalidFieldValue")

        // Framing (RFC 9112 §6).
        /// Transfer-Encoding other than exactly `chunked`.
        package static let unsupportedTransferCoding = Kind(name: "unsupportedTransferCoding")
        /// Transfer-Encoding in an HTTP/1.0 response, whose framing is then faulty (RFC 9112 §6.1).
        package static let transferEncodingInHTTP10 = Kind(name: "transferEncodingInHTTP10")
        /// Both Transfer-Encoding and Content-Length.
        package static let contentLengthWithTransferEncoding = Kind(name: "contentLengthWithTransferEncoding")
        /// A Content-Length that is not a decimal number.
        package static let invalidContentLength = Kind(name: "invalidContentLength")
        /// A Content-Length past `Int64.max`.
        package static let contentLengthTooLarge = Kind(name: "contentLengthTooLarge")
        /// Content-Length values that differ.
        package static let conflictingContentLengths = Kind(name: "conflictingContentLengths")

        // The chunked coding (RFC 9112 §7.1).
        /// A chunk size that is not hexadecimal.
        package static let invalidChunkSize = Kind(name: "invalidChunkSize")
        /// A chunk size of more than 16 hexadecimal digits, or past `Int64.max`.
        package static let chunkSizeTooLarge = Kind(name: "chunkSizeTooLarge")
        /// A chunk extension that is not `;name` or `;name=value`.
        package static let invalidChunkExtension = Kind(name: "invalidChunkExtension")
        /// A chunk's data not followed by CRLF.
        package static let missingChunkTerminator = Kind(name: "missingChunkTerminator")

        // The connection closed too soon.
        /// Closed before any byte of a response.
        package static let closedBeforeResponse = Kind(name: "closedBeforeResponse")
        /// Closed in the middle of the head.
        package static let closedInHead = Kind(name: "closedInHead")
        /// Closed before the Content-Length was reached.
        package static let closedInBody = Kind(name: "closedInBody")
        /// Closed before the last chunk and the trailers' end.
        package static let closedInChunkedBody = Kind(name: "closedInChunkedBody")
        /// A TLS connection closed without `close_notify` in a body that runs until the close.
        package static let cutWithoutCloseNotify = Kind(name: "cutWithoutCloseNotify")

        /// The kind's name.
        package var description: String { name }
    }

    /// Where a line or field was wrong, for the sentence.
    package enum Section: Sendable {
        /// The status line and header fields.
        case head
        /// The trailer fields after a chunked body's last chunk.
        case trailers
        /// A chunk-size line of a chunked body.
        case chunkLine

        /// How a sentence names the section.
        package var phrase: String {
            switch self {
            case .head: "the server's answer head"
            case .trailers: "the trailers of the server's chunked body"
            case .chunkLine: "a chunk-size line of the server's chunked body"
            }
        }
    }

    /// What is wrong.
    package let kind: Kind
    /// A sentence naming what was wrong, starting in lower case.
    package let description: String

    package init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}
