@testable import BatonClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// `revalidatesStoredValues` over a stub and an in-memory store: validators kept beside stored
/// entities, sent back as `If-None-Match` / `If-Modified-Since`, a `304` answered from the store
/// without touching it, a `200` replacing, and the cases that send no conditional field.
final class RevalidationTests: XCTestCase {

    /// An in-memory store that records which types were saved and deleted.
    private final class CountingStore: EntityStore {
        let inner = InMemoryEntityStore()
        let writes = Recorder<String>()

        func save<Entity: StoredEntity>(_ entities: [Entity]) throws {
            writes.append("save \(Entity.storeName)")
            try inner.save(entities)
        }
        func read<Entity: StoredEntity>(_ type: Entity.Type, id: Entity.ID) throws -> Entity? { try inner.read(type, id: id) }
        func readAll<Entity: StoredEntity>(_ type: Entity.Type) throws -> [Entity] { try inner.readAll(type) }
        func delete<Entity: StoredEntity>(_ type: Entity.Type, id: Entity.ID) throws {
            writes.append("delete \(Entity.storeName)")
            try inner.delete(type, id: id)
        }
        func deleteAll<Entity: StoredEntity>(_ type: Entity.Type) throws {
            writes.append("deleteAll \(Entity.storeName)")
            try inner.deleteAll(type)
        }
    }

    private let noteURL = "http://h/notes/n1"

    private func note(_ text: String, headers: [String: String] = ["ETag": "\"v1\""]) -> HTTPResponse {
        .json(#"{"id": "n1", "text": "\#(text)"}"#, headers: headers)
    }

    private let notModified = HTTPResponse(statusCode: 304, headers: ["ETag": "\"v1\""])

    private func client(_ transport: StubTransport, store: any EntityStore, revalidates: Bool = true) throws -> Client {
        try makeClient(transport: transport) { configuration in
            configuration.store = store
            configuration.revalidatesStoredValues = revalidates
        }
    }

    private func conditionalFields(_ request: URLRequest) -> [String?] {
        [request.value(forHTTPHeaderField: "If-None-Match"), request.value(forHTTPHeaderField: "If-Modified-Since")]
    }

    private func validator(for url: String, in store: any EntityStore) throws -> StoredValidator? {
        try store.read(StoredValidator.self, id: StoredValidator.id(for: url))
    }

    // MARK: One entity

    func test_a200WithAnETag_savesTheValueAndItsValidator_andTheNextGETAsksWithIt() async throws {
        let store = InMemoryEntityStore()
        let transport = sequencedStub([note("hello"), notModified])
        let client = try client(transport, store: store)

        _ = try await client.send(Request<Note>(.get, "notes/n1")).value
        XCTAssertEqual(try store.read(Note.self, id: "n1"), Note(id: "n1", text: "hello"))
        let kept = try XCTUnwrap(validator(for: noteURL, in: store))
        XCTAssertEqual(kept.etag, "\"v1\"")
        XCTAssertEqual(kept.ids, ["n1"])
        XCTAssertTrue(kept.matches(url: noteURL, credentials: StoredValidator.credentials(of: URLRequest(url: URL(string: noteURL)!), transport: transport)))
        XCTAssertFalse(String(describing: kept).contains("notes/n1"), "no URL in the store: \(kept)")

        _ = try await client.send(Request<Note>(.get, "notes/n1")).value
        XCTAssertEqual(transport.requests.map(conditionalFields), [[nil, nil], ["\"v1\"", nil]])
    }

    func test_anotherAccount_isNeverAskedConditionally_soNeverAnsweredWithTheStoredValue() async throws {
        let store = InMemoryEntityStore()
        let transport = sequencedStub([note("alice's"), note("bob's"), notModified])
        let client = try client(transport, store: store)
        let alice = Request<Note>(.get, "notes/n1", headers: ["Authorization": "Bearer alice"])
        let bob = Request<Note>(.get, "notes/n1", headers: ["Authorization": "Bearer bob"])

        _ = try await client.send(alice).value
        let bobs = try await client.fetch(bob).value
        _ = try await client.send(bob).value

        XCTAssertFalse(bobs.isRevalidated)
        XCTAssertEqual(bobs.value.text, "bob's")
        XCTAssertEqual(transport.requests.map(conditionalFields), [[nil, nil], [nil, nil], ["\"v1\"", nil]],
                       "bob asks whole, then with his own validator")
    }

    func test_a304_answersWithTheStoredValue_revalidated_andLeavesTheStoreUntouched() async throws {
        let store = CountingStore()
        let transport = sequencedStub([note("hello"), notModified])
        let client = try client(transport, store: store)
        _ = try await client.send(Request<Note>(.get, "notes/n1")).value
        // Changed locally since: the 304 must answer with what the store holds now.
        try store.inner.save(Note(id: "n1", text: "edited here"))
        let writesBefore = store.writes.events

        let answer = try await client.fetch(Request<Note>(.get, "notes/n1")).value

        XCTAssertEqual(answer.value, Note(id: "n1", text: "edited here"))
        XCTAssertTrue(answer.isRevalidated)
        XCTAssertFalse(answer.isFromStore)
        XCTAssertEqual(answer.response?.statusCode, 304)
        XCTAssertEqual(store.writes.events, writesBefore, "nothing saved or deleted")
        XCTAssertEqual(try validator(for: noteURL, in: store)?.etag, "\"v1\"")
    }

    func test_a200ToTheConditionalGET_replacesTheValueAndTheValidator() async throws {
        let store = InMemoryEntityStore()
        let transport = sequencedStub([note("hello"), note("changed", headers: ["ETag": "\"v2\""]), notModified])
        let client = try client(transport, store: store)

        _ = try await client.send(Request<Note>(.get, "notes/n1")).value
        let answer = try await client.fetch(Request<Note>(.get, "notes/n1")).value
        XCTAssertEqual(answer.value, Note(id: "n1", text: "changed"))
        XCTAssertFalse(answer.isRevalidated)
        XCTAssertEqual(try store.read(Note.self, id: "n1"), Note(id: "n1", text: "changed"))

        _ = try await client.send(Request<Note>(.get, "notes/n1")).value
        XCTAssertEqual(transport.requests.map(conditionalFields), [[nil, nil], ["\"v1\"", nil], ["\"v2\"", nil]])
    }

    func test_noStore_savesTheValue_butKeepsNoValidator() async throws {
        let store = InMemoryEntityStore()
        let transport = sequencedStub([
            note("hello"),
            note("private", headers: ["ETag": "\"v2\"", "Cache-Control": "private, no-store"]),
            note("again"),
        ])
        let client = try client(transport, store: store)

        _ = try await client.send(Request<Note>(.get, "notes/n1")).value
        _ = try await client.send(Request<Note>(.get, "notes/n1")).value
        XCTAssertEqual(try store.read(Note.self, id: "n1"), Note(id: "n1", text: "private"))
        XCTAssertNil(try validator(for: noteURL, in: store), "the earlier validator is forgotten too")

        _ = try await client.send(Request<Note>(.get, "notes/n1")).value
        XCTAssertEqual(transport.requests.map(conditionalFields), [[nil, nil], ["\"v1\"", nil], [nil, nil]])
    }

    func test_lastModifiedOnly_isSentAsIfModifiedSince() async throws {
        let date = "Wed, 21 Oct 2026 07:28:00 GMT"
        let transport = sequencedStub([note("hello", headers: ["Last-Modified": date]), notModified])
        let client = try client(transport, store: InMemoryEntityStore())

        _ = try await client.send(Request<Note>(.get, "notes/n1")).value
        let answer = try await client.fetch(Request<Note>(.get, "notes/n1")).value
        XCTAssertTrue(answer.isRevalidated)
        XCTAssertEqual(transport.requests.map(conditionalFields), [[nil, nil], [nil, date]])
    }

    func test_bothValidators_areBothSent() async throws {
        let date = "Wed, 21 Oct 2026 07:28:00 GMT"
        let transport = sequencedStub([note("hello", headers: ["ETag": "W/\"v1\"", "Last-Modified": date]), notModified])
        let client = try client(transport, store: InMemoryEntityStore())

        _ = try await client.send(Request<Note>(.get, "notes/n1")).value
        _ = try await client.send(Request<Note>(.get, "notes/n1")).value
        XCTAssertEqual(conditionalFields(transport.requests[1]), ["W/\"v1\"", date])
    }

    func test_anAnswerWithoutValidator_keepsNone() async throws {
        let store = InMemoryEntityStore()
        let transport = sequencedStub([note("hello", headers: [:]), note("again", headers: [:])])
        let client = try client(transport, store: store)

        _ = try await client.send(Request<Note>(.get, "notes/n1")).value
        _ = try await client.send(Request<Note>(.get, "notes/n1")).value
        XCTAssertNil(try validator(for: noteURL, in: store))
        XCTAssertEqual(transport.requests.map(conditionalFields), [[nil, nil], [nil, nil]])
    }

    func test_aFileStore_keepsTheValidatorAcrossClients() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "baton-revalidation-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let transport = sequencedStub([note("hello"), notModified])

        _ = try await client(transport, store: FileEntityStore(folder: folder)).send(Request<Note>(.get, "notes/n1")).value
        let answer = try await client(transport, store: FileEntityStore(folder: folder)).fetch(Request<Note>(.get, "notes/n1")).value

        XCTAssertTrue(answer.isRevalidated)
        XCTAssertEqual(answer.value, Note(id: "n1", text: "hello"))
        XCTAssertEqual(transport.requests.map(conditionalFields), [[nil, nil], ["\"v1\"", nil]])
    }

    // MARK: Not revalidated

    func test_optionOff_sendsNoConditionalField_andKeepsNoValidator() async throws {
        let store = InMemoryEntityStore()
        let transport = sequencedStub([note("hello"), note("again")])
        let client = try client(transport, store: store, revalidates: false)

        _ = try await client.send(Request<Note>(.get, "notes/n1")).value
        let second = try await client.send(Request<Note>(.get, "notes/n1")).value
        XCTAssertEqual(second.text, "again")
        XCTAssertEqual(transport.requests.map(conditionalFields), [[nil, nil], [nil, nil]])
        XCTAssertNil(try validator(for: noteURL, in: store))
        XCTAssertFalse(Client.Configuration(baseURL: URL(string: "http://h/")!).revalidatesStoredValues, "off by default")
    }

    func test_anEndpointsOwnIfNoneMatch_isLeftAlone() async throws {
        let transport = sequencedStub([note("hello"), note("again")])
        let client = try client(transport, store: InMemoryEntityStore())

        _ = try await client.send(Request<Note>(.get, "notes/n1")).value
        _ = try await client.send(Request<Note>(.get, "notes/n1", headers: ["If-None-Match": "\"mine\""])).value
        XCTAssertEqual(conditionalFields(transport.requests[1]), ["\"mine\"", nil])
    }

    func test_anEndpointsOwnIfModifiedSince_isLeftAlone_andNoIfNoneMatchAdded() async throws {
        let date = "Wed, 21 Oct 2026 07:28:00 GMT"
        let transport = sequencedStub([note("hello"), note("again")])
        let client = try client(transport, store: InMemoryEntityStore())

        _ = try await client.send(Request<Note>(.get, "notes/n1")).value
        _ = try await client.send(Request<Note>(.get, "notes/n1", headers: ["If-Modified-Since": date])).value
        XCTAssertEqual(conditionalFields(transport.requests[1]), [nil, date])
    }

    func test_aDeletedEntity_sendsNoConditionalField() async throws {
        let store = InMemoryEntityStore()
        let transport = sequencedStub([note("hello"), note("again")])
        let client = try client(transport, store: store)

        _ = try await client.send(Request<Note>(.get, "notes/n1")).value
        try store.delete(Note.self, id: "n1")
        let value = try await client.send(Request<Note>(.get, "notes/n1")).value
        XCTAssertEqual(value.text, "again")
        XCTAssertEqual(transport.requests.map(conditionalFields), [[nil, nil], [nil, nil]])
    }

    func test_valuesThatAreNotEntities_areNotRevalidated() async throws {
        let transport = sequencedStub([.json(Fixtures.orderJSON, headers: ["ETag": "\"o1\""])])
        let client = try client(transport, store: InMemoryEntityStore())

        _ = try await client.send(Request<Order>(.get, "orders/1")).value
        _ = try await client.send(Request<Order>(.get, "orders/1")).value
        XCTAssertEqual(transport.requests.map(conditionalFields), [[nil, nil], [nil, nil]])
    }

    func test_aPOSTsAnswer_keepsNoValidator() async throws {
        let store = InMemoryEntityStore()
        let transport = sequencedStub([note("posted"), note("got")])
        let client = try client(transport, store: store)

        _ = try await client.send(Request<Note>(.post, "notes/n1", body: .json(["text": "posted"]))).value
        XCTAssertEqual(try store.read(Note.self, id: "n1")?.text, "posted")
        XCTAssertNil(try validator(for: noteURL, in: store))
        _ = try await client.send(Request<Note>(.get, "notes/n1")).value
        XCTAssertEqual(conditionalFields(transport.requests[1]), [nil, nil])
    }

    // MARK: What a 304 is

    /// `Fetched.isRevalidated` says a stored value was confirmed: a `304` the endpoint asked for and
    /// accepts itself, with no stored value behind it, is not one.
    func test_a304ThatTheEndpointAcceptsItself_isNotARevalidation() async throws {
        let transport = constantStub(HTTPResponse(statusCode: 304))
        let client = try makeClient(transport: transport)   // no store, revalidatesStoredValues off
        var conditional = Request<HTTPResponse>(.get, "notes/n1", headers: ["If-None-Match": "\"mine\""])
        conditional.acceptableStatusCodes = 200..<400
        let answer = try await client.fetch(conditional).value
        XCTAssertEqual(answer.value.statusCode, 304)
        XCTAssertFalse(answer.isRevalidated, "no stored value was revalidated: the client has no store")
    }
}
