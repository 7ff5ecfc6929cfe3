import XCTest

extension RawClient {
    /// The data of every chunk of a chunked body, in order, up to and without the last chunk.
    func readChunks() throws -> [[UInt8]] {
        var chunks: [[UInt8]] = []
        while let chunk = try readChunk() { chunks.append(chunk) }
        return chunks
    }
}

/// The blocks of an event stream, each field by name (`event`, `id`, `data`, `retry`), as a
/// client reads them: blocks end with a blank line, a field is `name: value`.
func eventBlocks(_ bytes: [UInt8]) -> [[String: String]] {
    String(decoding: bytes, as: UTF8.self).components(separatedBy: "\n\n").filter { !$0.isEmpty }.map { block in
        var fields: [String: String] = [:]
        for line in block.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            fields[String(parts[0])] = parts.count > 1 ? String(parts[1].dropFirst()) : ""
        }
        return fields
    }
}

/// A JSON object's members, or an empty dictionary when `text` is not one.
func jsonObject(_ text: String) -> [String: Any] {
    (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
}
