import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Conditional requests for values in the client's store
/// (``Client/Configuration/revalidatesStoredValues``): a `GET` whose decoded value was saved
/// from an answer with a validator (`ETag`, `Last-Modified`) asks again with that validator
/// (`If-None-Match`, `If-Modified-Since`); a `304 Not Modified` then answers with the stored
/// value, untouched, and no body crosses the wire; a `200` replaces it as usual.
///
/// The validator is kept in the store itself, beside the entities (``StoredValidator``), so it
/// lives as long as they do, in whichever store the client has.
enum Revalidation {
    /// Adds the validator of `endpoint`'s stored value to `prepared`, with that value, when the
    /// client revalidates and both are in the store. A call whose endpoint sets conditional
    /// fields of its own is left as it is.
    static func prepare<E: Endpoint>(_ prepared: inout PreparedRequest, for endpoint: E, client: Client) {
        let configuration = client.configuration
        guard configuration.revalidatesStoredValues, let store = configuration.store, endpoint.method == .get,
              ResponseKeeper.isStorable(type: E.Response.self), let url = prepared.urlRequest.url?.absoluteString,
              prepared.urlRequest.value(forHTTPHeaderField: "If-None-Match") == nil,
              prepared.urlRequest.value(forHTTPHeaderField: "If-Modified-Since") == nil,
              let validator = try? store.read(StoredValidator.self, id: StoredValidator.id(for: url)), validator.url == url,
              let value = stored(E.Response.self, ids: validator.ids, from: store)
        else { return }
        if let etag = validator.etag { prepared.urlRequest.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        if let date = validator.lastModified { prepared.urlRequest.setValue(date, forHTTPHeaderField: "If-Modified-Since") }
        prepared.revalidating = value
    }

    /// Keeps the validator of `response`, the answer `value` was decoded from and saved, so that
    /// the next call asks with it; or forgets the one kept, when the answer has none or says
    /// `Cache-Control: no-store` (the value is still saved: the store is the app's, but it is
    /// never revalidated).
    static func remember(_ value: Any, from response: HTTPResponse, for request: RequestSummary, in store: any EntityStore) throws {
        guard request.method == .get, response.statusCode == 200, let url = request.url?.absoluteString,
              let ids = ResponseKeeper.ids(of: value)
        else { return }
        let id = StoredValidator.id(for: url)
        let etag = response.value(forHeader: "ETag")
        let lastModified = response.value(forHeader: "Last-Modified")
        let noStore = response.value(forHeader: "Cache-Control")?.lowercased().contains("no-store") ?? false
        guard !noStore, etag != nil || lastModified != nil else {
            return try store.delete(StoredValidator.self, id: id)
        }
        try store.save(StoredValidator(id: id, url: url, etag: etag, lastModified: lastModified, ids: ids))
    }

    /// The value of type `Value` kept in `store` under `ids`, if every entity of it is there.
    static func stored<Value>(_ type: Value.Type, ids: [String], from store: any EntityStore) -> Value? {
        if let entity = Value.self as? any StoredEntity.Type {
            guard ids.count == 1 else { return nil }
            return readOne(entity, id: ids[0], from: store) as? Value
        }
        if let batch = Value.self as? any EntityBatch.Type {
            return (try? batch.read(ids: ids, from: store)) as? Value
        }
        return nil
    }

    private static func readOne<Entity: StoredEntity>(_ type: Entity.Type, id: String, from store: any EntityStore) -> Entity? {
        guard let id = Entity.ID(id) else { return nil }
        return try? store.read(Entity.self, id: id)
    }
}

/// What a client keeps in its store to revalidate a stored value: the validator of the answer it
/// was decoded from, and the entities it is, by id.
struct StoredValidator: StoredEntity {
    static var storeName: String { "Baton.Validator" }

    /// A hash of ``url``: a store's ids are short.
    var id: String
    var url: String
    var etag: String?
    var lastModified: String?
    /// The entities' ids, in the order of the list they came in (one for a single entity).
    var ids: [String]

    /// The id of the validator for `url`: its 64-bit FNV-1a hash, in hexadecimal (``url`` tells
    /// colliding URLs apart).
    static func id(for url: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in url.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}
