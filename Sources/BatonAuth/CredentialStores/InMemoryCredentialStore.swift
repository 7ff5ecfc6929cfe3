import BatonSupport

/// Credentials kept in memory only: gone when the process ends. The default store.
public final class InMemoryCredentialStore: CredentialStore {
    private let credentials: Locked<Credentials?>

    /// A store holding `credentials` (none by default).
    public init(_ credentials: Credentials? = nil) {
        self.credentials = Locked(credentials)
    }

    /// The credentials held, if any.
    public func load() -> Credentials? {
        credentials.value
    }

    /// Holds `credentials` instead of any held before.
    public func save(_ credentials: Credentials) {
        self.credentials.withLock { $0 = credentials }
    }

    /// Forgets the credentials.
    public func clear() {
        credentials.withLock { $0 = nil }
    }
}
