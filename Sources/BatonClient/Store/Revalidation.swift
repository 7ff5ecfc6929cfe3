import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import BatonWire

/// Conditional requests for values in the client's store
/// (``Client/Configuration/revalidatesStoredValues``): a `GET` whose decoded value was saved
/// from a response with a validator (`ETag`, `Last-Modified`) asks again with that validator
/// (`If-None-Match`, `If-Modified-Since`); a `304 Not Modified` then answers with the stored
/// value, untouched, and no body crosses the wire; a `200` replaces it as usual.
///
/// The validator is kept in the store itself, beside the entities (``StoredValidator``), so it
/// lives as long as they do, in whichever store the client has.
enum Revalidation {
    /// `request`, about to be sent for `endpoint`, with the validator of its stored value and
    /// `prepared` with that value, when the client revalidates and both are in the store and
    /// were saved for the same credentials (`Authorization`, and the cookies the attempt carries,
    /// its own `Cookie` field or those its transport's jar adds: another account's value is
    /// never answered with). A call whose endpoint sets conditional fields of its own is left
    /// as it is. Run after the adapters, which set the credentials.
    static func prepare<E: Endpoint>(
        _ request: URLRequest, _ prepared: PreparedRequest, for endpoint: E, context: CallContext
    ) -> (URLRequest, PreparedRequest) {
        guard context.revalidatesStoredValues, let store = context.store, endpoint.method == .get,
              ResponseKeeper.isStorable(type: E.Response.self), let url = request.url?.absoluteString,
              ConditionalRequest.fieldNames.allSatisfy({ request.value(forHTTPHeaderField: $0) == nil })
        else { return (request, prepared) }
        var prepared = prepared
        var context = RevalidationContext(url: url, credentials: StoredValidator.credentials(of: request, transport: context.transport))
        guard let validator = try? store.read(StoredValidator.self, id: StoredValidator.id(for: url)),
              validator.matches(url: url, credentials: context.credentials),
              let value = stored(E.Response.self, ids: validator.ids, from: store)
        else {
            prepared.revalidation = context
            return (request, prepared)
        }
        var request = request
        for field in ConditionalRequest.fields(etag: validator.etag, lastModified: validator.lastModified) {
            request.setValue(field.value, forHTTPHeaderField: field.name)
        }
        context.stored = value
        prepared.revalidation = context
        return (request, prepared)
    }

    /// Keeps the validator of `response`, the response `value` was decoded from and saved, so that
    /// the next call from the same credentials asks with it; or forgets the one kept, when the
    /// response has none or says `Cache-Control: no-store` (the value is still saved: the store is
    /// the app's, but it is never revalidated).
    static func remember(_ value: Any, from response: HTTPResponse, for context: RevalidationContext, in store: any EntityStore) throws {
        guard response.statusCode == 200, let ids = ResponseKeeper.ids(of: value) else { return }
        let id = StoredValidator.id(for: context.url)
        let etag = response.value(forHeader: "ETag")
        let lastModified = response.value(forHeader: "Last-Modified")
        let noStore = response.value(forHeader: "Cache-Control")?.lowercased().contains("no-store") ?? false
        guard !noStore, etag != nil || lastModified != nil else {
            return try store.delete(StoredValidator.self, id: id)
        }
        try store.save(StoredValidator(
            id: id, check: FNV1a.hex(context.url, seed: StoredValidator.checkSeed), credentials: context.credentials,
            etag: etag, lastModified: lastModified, ids: ids
        ))
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

/// One attempt's conditional request: its URL and credentials, and the stored value a `304`
/// answers with (`nil` when none was asked about).
struct RevalidationContext: Sendable {
    var url: String
    /// A hash of the attempt's `Authorization` and `Cookie`.
    var credentials: String
    var stored: (any Sendable)?
}

/// What a client keeps in its store to revalidate a stored value: the validator of the response it
/// was decoded from, the entities it is, by id, and hashes of its URL and of the credentials it
/// was asked with (never the URL or the credentials themselves: a URL may carry secrets too).
struct StoredValidator: StoredEntity {
    static var storeName: String { "Baton.Validator" }

    /// A hash of the URL: one validator per URL, the latest.
    var id: String
    /// Another hash of the URL, which tells URLs whose ``id``s collide apart.
    var check: String
    /// A hash of the credentials the value was fetched with.
    var credentials: String
    var etag: String?
    var lastModified: String?
    /// The entities' ids, in the order of the list they came in (one for a single entity).
    var ids: [String]

    /// Whether this validator was kept for `url`, asked with `credentials`.
    func matches(url: String, credentials: String) -> Bool {
        check == FNV1a.hex(url, seed: Self.checkSeed) && self.credentials == credentials
    }

    /// The id of the validator for `url`.
    static func id(for url: String) -> String {
        FNV1a.hex(url)
    }

    /// The hash of the credentials `request` carries once `transport` sends it: its
    /// `Authorization`, and its own `Cookie` field or, when it has none and handles cookies, the
    /// one the transport's jar adds (``CookieKeeping``). A transport of the app's own that adds
    /// credentials of its own is not seen here.
    static func credentials(of request: URLRequest, transport: any Transport) -> String {
        let authorization = request.value(forHTTPHeaderField: "Authorization") ?? ""
        var cookie = request.value(forHTTPHeaderField: "Cookie") ?? ""
        if cookie.isEmpty, request.httpShouldHandleCookies, let url = request.url, let jar = transport as? CookieKeeping {
            cookie = jar.cookieHeader(for: url) ?? ""
        }
        return FNV1a.hex(authorization + "\n" + cookie) + FNV1a.hex(cookie + "\n" + authorization, seed: checkSeed)
    }

    /// The seed of ``check``: another start than FNV's own, for a hash independent of ``id``'s.
    static let checkSeed: UInt64 = 0x84222325cbf29ce4
}
