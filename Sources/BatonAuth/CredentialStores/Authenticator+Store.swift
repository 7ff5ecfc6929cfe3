import BatonSupport

// The authenticator's credentials store, read once and written after every change, and its events.
extension Authenticator {
    /// Reads the store on first need; a failure is announced and counts as no credentials.
    func loadIfNeeded() {
        guard !session.withLock(annotating: self, { $0.loaded }) else { return }
        let loaded = storeAccess.withLock(annotating: self) { _ in Result { try configuration.store.load() } }
        let margin = configuration.proactiveRefreshMargin
        let first: Bool = session.withLock(annotating: self) { session in
            guard !session.loaded else { return false }
            session.begin(with: try? loaded.get(), margin: margin, now: now())
            return true
        }
        if first, case .failure(let error) = loaded { emit(AuthenticationEvent(.storeFailed, error: error)) }
    }

    /// Saves the current credentials, or clears the store when there are none. Reading them inside
    /// the store's lock makes the last save always the latest state, whatever order threads race in.
    func persist() {
        let failure: (any Error)? = storeAccess.withLock(annotating: self) { _ in
            let credentials = session.withLock(annotating: self) { $0.credentials }
            do {
                if let credentials { try configuration.store.save(credentials) } else { try configuration.store.clear() }
                return nil
            } catch {
                return error
            }
        }
        if let failure { emit(AuthenticationEvent(.storeFailed, error: failure)) }
    }

    func emit(_ event: AuthenticationEvent) {
        configuration.onEvent?(event)
    }
}
