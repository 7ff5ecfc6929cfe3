/// How much of a server's response head the parser holds before it refuses the response, so that a
/// broken or hostile server cannot make the client buffer without end. The same limits apply
/// to a chunked body's trailer section.
package struct ResponseLimits: Sendable {
    /// The most bytes of a head, its status line and line ends included (with any interim 1xx
    /// responses before it); the most bytes of a trailer section.
    package var maximumHeadBytes: Int
    /// The most bytes of one line, its line end not counted: a status line, a field line, a
    /// chunk-size line with its extensions.
    package var maximumLineBytes: Int
    /// The most fields in a head, or in a trailer section.
    package var maximumFieldCount: Int

    /// Limits of 64 KiB a head, 16 KiB a line and 128 fields unless given.
    package init(maximumHeadBytes: Int = 64 * 1024, maximumLineBytes: Int = 16 * 1024, maximumFieldCount: Int = 128) {
        self.maximumHeadBytes = maximumHeadBytes
        self.maximumLineBytes = maximumLineBytes
        self.maximumFieldCount = maximumFieldCount
    }
}
