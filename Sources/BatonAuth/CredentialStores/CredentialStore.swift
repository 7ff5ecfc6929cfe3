/// Where an ``Authenticator`` keeps credentials between launches.
///
/// Baton ships ``InMemoryCredentialStore`` (nothing survives the process) and
/// ``FileCredentialStore`` (a file only the user can read). On Apple platforms, store them in the
/// Keychain by implementing these three methods with `SecItemCopyMatching`, `SecItemAdd` /
/// `SecItemUpdate` and `SecItemDelete`.
///
/// The authenticator calls the store from whichever thread needs it, never two calls at once for
/// one authenticator; calls are short and synchronous. Errors are reported through
/// ``AuthenticationEvent/Kind/storeFailed`` and never lose the credentials held in memory.
public protocol CredentialStore: Sendable {
    /// The saved credentials, or `nil` if there are none. Throws if they exist but cannot be read.
    func load() throws -> Credentials?
    /// Saves `credentials`, replacing any saved before.
    func save(_ credentials: Credentials) throws
    /// Removes saved credentials; does nothing if there are none.
    func clear() throws
}
