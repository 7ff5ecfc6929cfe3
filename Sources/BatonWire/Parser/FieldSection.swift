/// A head's header fields or a chunked body's trailer section (RFC 9112 §5, §7.1.2): field
/// lines up to an empty line, gathered across any split of the bytes, within the limits.
package struct FieldSection: Sendable {
    /// The fields so far, in order, names as received, values without surrounding whitespace.
    package private(set) var fields: [(name: String, value: String)] = []
    /// The section's bytes read so far, line ends included (for a head, its status line too).
    package private(set) var byteCount: Int
    private var reader: LineReader
    private let limits: ResponseLimits
    private let section: WireError.Section

    /// A section in which `byteCount` bytes count already (a head's status line, and any
    /// interim responses before it).
    package init(_ section: WireError.Section, limits: ResponseLimits, byteCount: Int = 0) {
        self.section = section
        self.limits = limits
        self.byteCount = byteCount
        reader = LineReader(maximumLength: limits.maximumLineBytes, section: section)
    }

    /// Reads field lines from `bytes[index...]`, moving `index` past them, up to the empty line
    /// that ends the section. Returns whether the section is complete; when not, every byte was
    /// read.
    package mutating func read(_ bytes: UnsafeRawBufferPointer, at index: inout Int) throws(WireError) -> Bool {
        while index < bytes.count {
            let budget = limits.maximumHeadBytes - byteCount
            guard budget > 0 else { throw .headTooLarge(section, limit: limits.maximumHeadBytes) }
            let start = index
            let complete = try reader.read(bytes, at: &index, budget: budget)
            byteCount += index - start
            guard complete else { continue }
            if reader.line.isEmpty { return true }
            guard fields.count < limits.maximumFieldCount else {
                throw .tooManyFields(in: section, limit: limits.maximumFieldCount)
            }
            fields.append(try Self.parseField(reader.line[...], in: section))
            reader.clear()
        }
        return false
    }

    /// A field line, `name: value` (RFC 9112 §5, RFC 9110 §5.5): the name a token right before
    /// the colon, the value any text bytes, without the whitespace around it.
    package static func parseField(_ line: ArraySlice<UInt8>, in section: WireError.Section) throws(WireError) -> (name: String, value: String) {
        if let first = line.first, WireText.isWhitespace(first) { throw .obsoleteLineFolding(in: section, line: line) }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { throw .missingColon(in: section, line: line) }
        let name = line[..<colon]
        if let last = name.last, WireText.isWhitespace(last) { throw .whitespaceBeforeColon(in: section, name: name) }
        guard !name.isEmpty, name.allSatisfy(WireText.isTokenByte) else { throw .invalidFieldName(in: section, name: name) }
        let nameText = WireText.decode(name)
        let value = WireText.trimmingWhitespace(line[(colon + 1)...])
        if let bad = value.first(where: { !WireText.isTextByte($0) }) {
            throw .invalidFieldValue(in: section, name: nameText, byte: bad)
        }
        return (nameText, WireText.decode(value))
    }
}
