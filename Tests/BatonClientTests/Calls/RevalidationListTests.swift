@testable import BatonClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// Revalidating a stored list (`[Entity]`): its validator names the entities in order; a `304`
/// answers with them as the store holds them; a list one of whose entities is gone from the
/// store asks for the whole list again.
final class RevalidationListTests: XCTestCase {

    private let listURL = "http://h/notes"

    private func notes(_ ids: [String], etag: String = "\"list-1\"") -> HTTPResponse {
        let items = ids.map { #"{"id": "\#($0)", "text": "text of \#($0)"}"# }.joined(separator: ",")
        return .json("[\(items)]", headers: ["ETag": etag])
    }

    private let notModified = HTTPResponse(statusCode: 304)

    private func client(_ transport: StubTransport, store: any EntityStore) throws -> Client {
        try makeClient(transport: transport) { configuration in
            configuration.store = store
            configuration.revalidatesStoredValues = true
        }
    }

    private func ifNoneMatch(_ transport: StubTransport) -> [String?] {
        transport.requests.map { $0.value(forHTTPHeaderField: "If-None-Match") }
    }

    func test_aListsValidator_namesItsEntitiesInOrder() async throws {
        let store = InMemoryEntityStore()
        let client = try client(sequencedStub([notes(["c", "a", "b"])]), store: store)

        _ = try await client.send(Request<[Note]>(.get, "notes")).value
        let kept = try XCTUnwrap(try store.read(StoredValidator.self, id: StoredValidator.id(for: listURL)))
        XCTAssertEqual(kept.ids, ["c", "a", "b"])
        XCTAssertEqual(kept.etag, "\"list-1\"")
        XCTAssertEqual(try store.readAll(Note.self).map(\.id), ["a", "b", "c"])
    }

    func test_a304ToAList_answersWithTheStoredEntities_inTheListsOrder() async throws {
        let store = InMemoryEntityStore()
        let transport = sequencedStub([notes(["c", "a", "b"]), notModified])
        let client = try client(transport, store: store)
        _ = try await client.send(Request<[Note]>(.get, "notes")).value
        try store.save(Note(id: "a", text: "edited here"))

        let answer = try await client.fetch(Request<[Note]>(.get, "notes")).value

        XCTAssertTrue(answer.isRevalidated)
        XCTAssertEqual(answer.value, [Note(id: "c", text: "text of c"), Note(id: "a", text: "edited here"), Note(id: "b", text: "text of b")])
        XCTAssertEqual(ifNoneMatch(transport), [nil, "\"list-1\""])
    }

    func test_a200ToAList_replacesItsValidator() async throws {
        let store = InMemoryEntityStore()
        let transport = sequencedStub([notes(["a", "b"]), notes(["b"], etag: "\"list-2\""), notModified])
        let client = try client(transport, store: store)

        _ = try await client.send(Request<[Note]>(.get, "notes")).value
        _ = try await client.send(Request<[Note]>(.get, "notes")).value
        let third = try await client.send(Request<[Note]>(.get, "notes")).value

        XCTAssertEqual(third.map(\.id), ["b"])
        XCTAssertEqual(ifNoneMatch(transport), [nil, "\"list-1\"", "\"list-2\""])
    }

    func test_aListOneOfWhoseEntitiesWasDeleted_sendsNoConditionalField() async throws {
        let store = InMemoryEntityStore()
        let transport = sequencedStub([notes(["a", "b", "c"]), notes(["a", "c"], etag: "\"list-2\"")])
        let client = try client(transport, store: store)
        _ = try await client.send(Request<[Note]>(.get, "notes")).value

        try store.delete(Note.self, id: "b")
        let value = try await client.send(Request<[Note]>(.get, "notes")).value

        XCTAssertEqual(value.map(\.id), ["a", "c"])
        XCTAssertEqual(ifNoneMatch(transport), [nil, nil])
        XCTAssertEqual(transport.requests[1].value(forHTTPHeaderField: "If-Modified-Since"), nil)
    }

    func test_anEmptyList_isRevalidatedAsEmpty() async throws {
        let store = InMemoryEntityStore()
        let transport = sequencedStub([notes([]), notModified])
        let client = try client(transport, store: store)

        _ = try await client.send(Request<[Note]>(.get, "notes")).value
        let answer = try await client.fetch(Request<[Note]>(.get, "notes")).value
        XCTAssertTrue(answer.isRevalidated)
        XCTAssertEqual(answer.value, [])
    }

    func test_aListAndAnEntity_keepTheirValidatorsApart() async throws {
        let store = InMemoryEntityStore()
        let transport = sequencedStub([
            notes(["a"]),
            .json(#"{"id": "a", "text": "one"}"#, headers: ["ETag": "\"one-1\""]),
            notModified,
        ])
        let client = try client(transport, store: store)

        _ = try await client.send(Request<[Note]>(.get, "notes")).value
        _ = try await client.send(Request<Note>(.get, "notes/a")).value
        _ = try await client.send(Request<[Note]>(.get, "notes")).value
        XCTAssertEqual(ifNoneMatch(transport), [nil, nil, "\"list-1\""])
    }
}
