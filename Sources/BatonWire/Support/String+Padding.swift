extension String {
    /// This text with `0`s in front, up to `width` characters: `"A".leftPadded(to: 2)` is `"0A"`.
    package func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
