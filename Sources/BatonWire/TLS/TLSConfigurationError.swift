/// A ``TLSConfiguration`` setting that cannot be used, saying why.
public struct TLSConfigurationError: Error, Sendable, CustomStringConvertible {
    /// The sentence, as in `the PEM text holds no certificate (no "-----BEGIN CERTIFICATE-----" line)`.
    public let description: String

    package init(_ description: String) {
        self.description = description
    }
}
