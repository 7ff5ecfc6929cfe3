#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A streaming `multipart/form-data` parser (RFC 7578 on the syntax of RFC 2046 §5.1.1).
///
/// Feed the body in pieces of any size with `append`, take events with `next` until it returns nil,
/// and call `finish` at the end of the body. Part data comes out as it is found, so a part of any
/// size needs no more memory than one piece plus a delimiter. A delimiter counts only when the
/// boundary is followed by `--` or by optional spaces and a line break: file bytes that merely
/// begin with the boundary (`\r\n--boundaryX`) are data.
struct MultipartParser {
    enum Event {
        case partStart(HTTPHeaders)
        case partData(ArraySlice<UInt8>)
        case partEnd
    }

    /// Why a body is not valid multipart; the message goes into the 422 response.
    struct Failure: Error, Equatable {
        var message: String
    }

    static let maxPartHeaderBytes = 16 * 1024
    /// Spaces allowed between a boundary and its line break ("transport padding").
    static let maxPadding = 64

    private enum State {
        case preamble
        case partHeaders
        case partBody
        case epilogue
    }

    private enum DelimiterCheck {
        case notDelimiter
        case needMore
        /// A delimiter that ends at `end` (line break included); `closing` for the final `--`.
        case delimiter(end: Int, closing: Bool)
    }

    /// `\r\n--boundary`: the body is read as if it began with a line break, so that the first
    /// delimiter looks like every other one.
    private let delimiter: [UInt8]
    private var buffer: [UInt8] = [.cr, .lf]
    private var start = 0
    private var searchFrom = 0
    private var state = State.preamble

    /// Nil when `boundary` is not 1 to 70 characters as RFC 2046 requires.
    init?(boundary: String) {
        guard (1...70).contains(boundary.utf8.count) else { return nil }
        delimiter = [.cr, .lf, UInt8(ascii: "-"), UInt8(ascii: "-")] + Array(boundary.utf8)
    }

    mutating func append(_ bytes: ArraySlice<UInt8>) {
        if start > 0 {
            buffer.removeSubrange(0..<start)
            searchFrom -= start
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// Throws when the whole body has been appended but the closing delimiter never came.
    func finish() throws(Failure) {
        guard case .epilogue = state else { throw Failure(message: "multipart body has no closing boundary") }
    }

    mutating func next() throws(Failure) -> Event? {
        while true {
            switch state {
            case .epilogue:
                start = buffer.count
                return nil
            case .preamble:
                guard let (_, check) = findDelimiter() else {
                    // Preamble bytes are ignored; keep only what could begin a delimiter.
                    start = max(start, buffer.count - delimiter.count + 1)
                    return nil
                }
                guard case .delimiter(let end, let closing) = check else { return nil }
                start = end
                searchFrom = end
                state = closing ? .epilogue : .partHeaders
            case .partHeaders:
                guard let headers = try readPartHeaders() else { return nil }
                state = .partBody
                return .partStart(headers)
            case .partBody:
                guard let (found, check) = findDelimiter() else {
                    let safeEnd = max(start, buffer.count - delimiter.count + 1)
                    searchFrom = safeEnd
                    guard safeEnd > start else { return nil }
                    let piece = buffer[start..<safeEnd]
                    start = safeEnd
                    return .partData(piece)
                }
                if found > start {
                    let piece = buffer[start..<found]
                    start = found
                    return .partData(piece)
                }
                guard case .delimiter(let end, let closing) = check else { return nil }
                start = end
                searchFrom = end
                state = closing ? .epilogue : .partHeaders
                return .partEnd
            }
        }
    }

    /// The first `\r\n--boundary` from `searchFrom` that is a delimiter or might be one once more
    /// bytes arrive; matches that are only a prefix of data are skipped.
    private mutating func findDelimiter() -> (Int, DelimiterCheck)? {
        while let found = firstMatch(from: max(searchFrom, start)) {
            let check = checkDelimiter(at: found)
            if case .notDelimiter = check {
                searchFrom = found + 1
                continue
            }
            searchFrom = found
            return (found, check)
        }
        searchFrom = max(searchFrom, start, buffer.count - delimiter.count + 1)
        return nil
    }

    /// The index of the next full occurrence of `delimiter`, found with `memchr`/`memcmp` because
    /// this scans every byte of every upload.
    private func firstMatch(from: Int) -> Int? {
        let last = buffer.count - delimiter.count
        guard from <= last else { return nil }
        return buffer.withUnsafeBytes { bytes -> Int? in
            delimiter.withUnsafeBytes { needle -> Int? in
                guard let base = bytes.baseAddress, let needleBase = needle.baseAddress else { return nil }
                var position = from
                while position <= last {
                    guard let hit = memchr(base + position, Int32(UInt8.cr), last - position + 1) else { return nil }
                    let index = base.distance(to: UnsafeRawPointer(hit))
                    if memcmp(base + index, needleBase, delimiter.count) == 0 { return index }
                    position = index + 1
                }
                return nil
            }
        }
    }

    private func checkDelimiter(at index: Int) -> DelimiterCheck {
        var position = index + delimiter.count
        guard position + 2 <= buffer.count else { return .needMore }
        if buffer[position] == UInt8(ascii: "-"), buffer[position + 1] == UInt8(ascii: "-") {
            return .delimiter(end: position + 2, closing: true)
        }
        var padding = 0
        while position < buffer.count, buffer[position] == .space || buffer[position] == .tab {
            position += 1
            padding += 1
            if padding > Self.maxPadding { return .notDelimiter }
        }
        guard position < buffer.count else { return .needMore }
        if buffer[position] == .lf { return .delimiter(end: position + 1, closing: false) }
        guard buffer[position] == .cr else { return .notDelimiter }
        guard position + 1 < buffer.count else { return .needMore }
        return buffer[position + 1] == .lf ? .delimiter(end: position + 2, closing: false) : .notDelimiter
    }

    /// The part's header block up to its empty line, or nil until it has all arrived.
    private mutating func readPartHeaders() throws(Failure) -> HTTPHeaders? {
        var lineStart = start
        var index = start
        var headers = HTTPHeaders()
        while index < buffer.count {
            if buffer[index] == .lf {
                var line = buffer[lineStart..<index]
                if line.last == .cr { line = line.dropLast() }
                if line.isEmpty {
                    start = index + 1
                    searchFrom = start
                    return headers
                }
                guard let colon = line.firstIndex(of: .colon),
                      line[line.startIndex..<colon].allSatisfy(\.isTokenCharacter), colon > line.startIndex
                else { throw Failure(message: "part header line is not \"Name: value\"") }
                headers.append(
                    name: String(decoding: line[line.startIndex..<colon], as: UTF8.self),
                    value: String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingOWS()
                )
                lineStart = index + 1
            }
            index += 1
            if index - start > Self.maxPartHeaderBytes { throw Failure(message: "part headers larger than 16 KiB") }
        }
        return nil
    }
}
