import BatonSupport

/// An ``EntityStore`` that keeps entities in memory, for tests and for data that need not
/// outlive the process. Safe to use from any thread.
public final class InMemoryEntityStore: EntityStore {
    /// Entities by store name, then by id as text.
    private let entities = Locked<[String: [String: any Sendable]]>([:])

    /// An empty store.
    public init() {}

    public func save<Entity: StoredEntity>(_ entities: [Entity]) throws {
        self.entities.withLock { all in
            for entity in entities { all[Entity.storeName, default: [:]][String(entity.id)] = entity }
        }
    }

    public func read<Entity: StoredEntity>(_ type: Entity.Type, id: Entity.ID) throws -> Entity? {
        entities.withLock { $0[Entity.storeName]?[String(id)] } as? Entity
    }

    /// Every entity of `type`, ordered by id as text.
    public func readAll<Entity: StoredEntity>(_ type: Entity.Type) throws -> [Entity] {
        let stored = entities.withLock { $0[Entity.storeName] ?? [:] }
        return stored.sorted { $0.key < $1.key }.compactMap { $0.value as? Entity }
    }

    public func delete<Entity: StoredEntity>(_ type: Entity.Type, id: Entity.ID) throws {
        _ = entities.withLock { $0[Entity.storeName]?.removeValue(forKey: String(id)) }
    }

    public func deleteAll<Entity: StoredEntity>(_ type: Entity.Type) throws {
        _ = entities.withLock { $0.removeValue(forKey: Entity.storeName) }
    }
}
