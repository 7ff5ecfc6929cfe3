/// What ``Client/fetch(_:offline:)`` answers with when the network fails: a value read from
/// the client's store (``Client/Configuration/store``), or nothing.
///
/// ```swift
/// client.fetch(Request<Book>(.get, "books/\(id)"), offline: .stored(id: id))
/// client.fetch(Request<[Book]>(.get, "books"), offline: .allStored())
/// let author = "夏目漱石"
/// client.fetch(Request<[Book]>(.get, "books", query: [URLQueryItem(name: "author", value: author)]),
///              offline: .custom { store in try store.readAll(Book.self).filter { $0.author == author } })
/// ```
public struct OfflineFallback<Value: Sendable>: Sendable {
    /// Reads the stored response; `nil` when there is none.
    let read: (@Sendable (any EntityStore) throws -> Value?)?

    /// No fallback: a network failure fails the call.
    public static var none: OfflineFallback { OfflineFallback(read: nil) }

    /// The value `read` finds in the store; a `nil` or a throw fails the call with the network's
    /// error.
    public static func custom(_ read: @escaping @Sendable (any EntityStore) throws -> Value?) -> OfflineFallback {
        OfflineFallback(read: read)
    }
}

extension OfflineFallback where Value: StoredEntity {
    /// The stored entity with `id`, if there is one.
    public static func stored(id: Value.ID) -> OfflineFallback {
        .custom { store in try store.read(Value.self, id: id) }
    }
}

extension OfflineFallback {
    /// Every stored entity of the array's element type (which may be none: an empty response).
    public static func allStored<Entity: StoredEntity>() -> OfflineFallback where Value == [Entity] {
        .custom { store in try store.readAll(Entity.self) }
    }
}
