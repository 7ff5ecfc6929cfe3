/// Why a compressed response body could not be undone: its `kind`, for code, and a sentence
/// naming the fault in the body's own terms (gzip, zlib or deflate), for people.
package struct InflateError: Error, Sendable, CustomStringConvertible, Equatable {
    package enum Kind: Sendable, Equatable, CaseIterable {
        /// The gzip or zlib header is malformed, or asks for what HTTP bodies never use.
        case invalidHeader
        /// A deflate block has the reserved type 3.
        case invalidBlockType
        /// A stored block's length is not followed by its one's complement.
        case invalidStoredLength
        /// A Huffman code is malformed (over-subscribed, incomplete, or describing lengths
        /// badly), or the data uses a code or symbol the block does not define.
        case invalidHuffmanCode
        /// A match reaches back before the start of the data.
        case invalidDistance
        /// The CRC-32 (gzip, or a gzip header's CRC-16) or the Adler-32 (zlib) does not match.
        case checksumMismatch
        /// The gzip trailer's ISIZE does not match the decompressed size.
        case lengthMismatch
        /// The body ended before the compressed stream and its trailer did.
        case truncated
        /// Bytes follow the end of the stream (other than a further gzip member).
        case trailingData
        /// The decompressed body would pass the limit given to the inflater.
        case tooLarge
    }

    package var kind: Kind
    /// A short sentence: what was wrong with the body.
    package var description: String

    package init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}

extension InflateError {
    package static func tooLarge(limit: Int) -> InflateError {
        InflateError(.tooLarge, "the body decompresses to more than \(limit) bytes")
    }

    package static let truncated = InflateError(.truncated, "the compressed body ends before its stream is complete")

    package static let invalidBlockType = InflateError(.invalidBlockType, "a deflate block has the reserved block type 3")

    package static let invalidStoredLength = InflateError(
        .invalidStoredLength, "a stored deflate block's length does not match its complement")

    package static let invalidDistance = InflateError(
        .invalidDistance, "a deflate match refers back before the start of the data")

    package static func invalidHuffmanCode(_ what: String) -> InflateError {
        InflateError(.invalidHuffmanCode, "the deflate data \(what)")
    }

    package static func invalidHeader(_ what: String) -> InflateError {
        InflateError(.invalidHeader, what)
    }

    package static func trailingData(after what: String) -> InflateError {
        InflateError(.trailingData, "bytes follow the end of the \(what)")
    }
}
