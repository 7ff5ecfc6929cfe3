/// What a client does with a decoded value before fulfilling the call: writes the entities in
/// it to the client's store, then runs the response hooks. Made once per client, and only when
/// there is something to do.
struct ResponseKeeper: Sendable {
    let store: (any EntityStore)?
    let failsCallsWhenStoreFails: Bool
    let hooks: [any ResponseHook]
    /// Whether the validators of stored values are kept, for conditional requests.
    let revalidates: Bool

    init?(configuration: Client.Configuration) {
        guard configuration.store != nil || !configuration.responseHooks.isEmpty else { return nil }
        store = configuration.store
        failsCallsWhenStoreFails = configuration.failsCallsWhenStoreFails
        hooks = configuration.responseHooks
        revalidates = configuration.revalidatesStoredValues
    }

    /// Whether `value` gives the keeper anything to do; with `saving` false (a revalidated
    /// value, already stored), only hooks do.
    func keeps(_ value: Any, saving: Bool = true) -> Bool {
        !hooks.isEmpty || (saving && store != nil && Self.isStorable(value))
    }

    /// Saves the entities in `value` and runs the hooks. A store that fails is reported to the
    /// client's monitors, and fails the call only if the client says so.
    func keep(
        _ value: any Sendable, from response: HTTPResponse, for request: RequestSummary, context: CallContext, saving: Bool = true,
        revalidation: RevalidationContext? = nil
    ) throws {
        if saving, let store {
            do {
                try Self.save(value, to: store)
                if revalidates, let revalidation { try Revalidation.remember(value, from: response, for: revalidation, in: store) }
            } catch {
                context.emit(.storeFailed(request, error: error))
                if failsCallsWhenStoreFails { throw error }
            }
        }
        for hook in hooks { try hook.decoded(value, response: response, request: request) }
    }

    /// Whether `value` is a ``StoredEntity`` or an array of them.
    static func isStorable(_ value: Any) -> Bool {
        value is any StoredEntity || value is any EntityBatch
    }

    /// Whether values of `type` are kept in a store: a ``StoredEntity`` or an array of them.
    static func isStorable<Value>(type: Value.Type) -> Bool {
        Value.self is any StoredEntity.Type || Value.self is any EntityBatch.Type
    }

    /// The ids of the entities `value` holds, as text, in order; `nil` when it holds none.
    static func ids(of value: Any) -> [String]? {
        if let batch = value as? any EntityBatch { return batch.ids }
        if let entity = value as? any StoredEntity { return [Self.id(of: entity)] }
        return nil
    }

    private static func id<Entity: StoredEntity>(of entity: Entity) -> String {
        String(entity.id)
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
    /// The entities' ids, as text, in order.
    var ids: [String] { get }
    /// The entities with `ids`, in that order, read from `store`; `nil` when one is missing.
    static func read(ids: [String], from store: any EntityStore) throws -> Self?
}

extension Array: EntityBatch where Element: StoredEntity {
    func save(to store: any EntityStore) throws {
        try store.save(self)
    }

    var ids: [String] { map { String($0.id) } }

    static func read(ids: [String], from store: any EntityStore) throws -> [Element]? {
        var entities: [Element] = []
        entities.reserveCapacity(ids.count)
        for text in ids {
            guard let id = Element.ID(text), let entity = try store.read(Element.self, id: id) else { return nil }
            entities.append(entity)
        }
        return entities
    }
}
