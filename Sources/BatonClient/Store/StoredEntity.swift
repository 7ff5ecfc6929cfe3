/// A decoded value that the client saves to its store (``Client/Configuration/store``) the
/// moment it arrives, upserted by its `id`: an endpoint whose response is such an entity, or an
/// array of them, is written before the call's promise fulfils.
///
/// ```swift
/// struct Book: StoredEntity {
///     var id: Int
///     var title: String
///     var author: String
/// }
///
/// let client = try Client(baseURL: api) { $0.store = FileEntityStore(folder: cache) }
/// client.send(Request<Book>(.get, "books/1"))       // fulfils once book 1 is in the store
/// let saved = try client.configuration.store?.read(Book.self, id: 1)
/// ```
///
/// The id is kept as text (`LosslessStringConvertible`): `Int`, `String` and `UUID` ids work
/// as they are.
public protocol StoredEntity: Codable, Sendable, Identifiable where ID: LosslessStringConvertible & Sendable {
    /// The name the type's records are kept under. Default: the type's name. Set it to keep
    /// reading records saved before a type was renamed.
    static var storeName: String { get }
}

extension StoredEntity {
    /// The type's name, as in `Book`.
    public static var storeName: String { String(describing: Self.self) }
}
