/// Where a client keeps ``StoredEntity`` values: read by id, read all of a type, delete, delete
/// all, and save (an upsert by id).
///
/// Baton brings ``FileEntityStore`` (one file per entity, survives a restart) and
/// ``InMemoryEntityStore``. Conform your own type to keep entities in a database of your
/// choice; every method may be called from any thread at once.
public protocol EntityStore: Sendable {
    /// Saves `entities`, each replacing any entity of the same type and id.
    func save<Entity: StoredEntity>(_ entities: [Entity]) throws
    /// The entity of `type` with `id`, or `nil` if there is none (or its record cannot be read
    /// back, which the store reports in its own way).
    func read<Entity: StoredEntity>(_ type: Entity.Type, id: Entity.ID) throws -> Entity?
    /// Every entity of `type`, in no particular order.
    func readAll<Entity: StoredEntity>(_ type: Entity.Type) throws -> [Entity]
    /// Removes the entity of `type` with `id`, if there is one.
    func delete<Entity: StoredEntity>(_ type: Entity.Type, id: Entity.ID) throws
    /// Removes every entity of `type`.
    func deleteAll<Entity: StoredEntity>(_ type: Entity.Type) throws
}

extension EntityStore {
    /// Saves one entity, replacing any of the same type and id.
    public func save<Entity: StoredEntity>(_ entity: Entity) throws {
        try save([entity])
    }
}
