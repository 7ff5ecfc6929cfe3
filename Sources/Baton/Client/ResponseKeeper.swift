/// What a client does with a decoded value before fulfilling the call: writes the entities in
/// it to the client's store, then runs the response hooks. Made once per client, and only when
/// there is something to do.
struct ResponseKeeper: Sendable {
    let store: (any EntityStore)?
    let failsCallsWhenStoreFails: Bool
    let hooks: [any ResponseHook]

    init?(configuration: Client.Configuration) {
        guard configuration.store != nil || !configuration.responseHooks.isEmpty else { return nil }
        store = configuration.store
        failsCallsWhenStoreFails = configuration.failsCallsWhenStoreFails
        hooks = configuration.responseHooks
    }

    /// Whether `value` gives the keeper anything to do.
    func keeps(_ value: Any) -> Bool {
        !hooks.isEmpty || (store != nil && Self.isStorable(value))
    }

    /// Saves the entities in `value` and runs the hooks. A store that fails is reported to the
    /// client's monitors, and fails the call only if the client says so.
    func keep(_ value: any Sendable, from response: HTTPResponse, for request: RequestSummary, client: Client) throws {
        if let store {
            do {
                try Self.save(value, to: store)
            } catch {
                client.emit(.storeFailed(request, error: error))
                if failsCallsWhenStoreFails { throw error }
            }
        }
        for hook in hooks { try hook.decoded(value, response: response, request: request) }
    }

    /// Whether `value` is a ``StoredEntity`` or an array of them.
    static func isStorable(_ value: Any) -> Bool {
        value is any StoredEntity || value is any EntityBatch
    }

    /// Saves `value` if it is a ``StoredEntity`` or an array of them.
    static func save(_ value: Any, to store: any EntityStore) throws {
        if let batch = value as? any EntityBatch {
            try batch.save(to: store)
        } else if let entity = value as? any StoredEntity {
            try saveOne(entity, to: store)
        }
    }

    private static func saveOne<Entity: StoredEntity>(_ entity: Entity, to store: any EntityStore) throws {
        try store.save([entity])
    }
}

/// An array of entities, saved in one call: how an `[Entity]` is recognised behind `Any`.
protocol EntityBatch {
    func save(to store: any EntityStore) throws
}

extension Array: EntityBatch where Element: StoredEntity {
    func save(to store: any EntityStore) throws {
        try store.save(self)
    }
}
