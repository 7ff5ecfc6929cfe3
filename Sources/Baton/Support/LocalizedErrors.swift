import Foundation

// Every public error of Baton reads the same everywhere: `localizedDescription` (and so any UI
// or log that shows it) gives the sentence that `description` gives, rather than Foundation's
// "The operation could not be completed. (Baton.APIError error 2.)".

extension APIError: LocalizedError {
    /// The error's sentence: see ``description``.
    public var errorDescription: String? { description }
}

extension AuthenticationError: LocalizedError {
    /// The error's sentence: see ``description``.
    public var errorDescription: String? { description }
}

extension CredentialStoreError: LocalizedError {
    /// The error's sentence: see ``description``.
    public var errorDescription: String? { description }
}

extension EntityStoreError: LocalizedError {
    /// The error's sentence: see ``description``.
    public var errorDescription: String? { description }
}

extension ImageLoaderError: LocalizedError {
    /// The error's sentence: see ``description``.
    public var errorDescription: String? { description }
}

extension PromiseError: LocalizedError {
    /// The error's sentence: see ``description``.
    public var errorDescription: String? { description }
}

extension ConfigurationError: LocalizedError {
    /// The error's sentence: see ``description``.
    public var errorDescription: String? { description }
}
