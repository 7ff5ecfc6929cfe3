import BatonSupport
@testable import BatonClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// What a client does with a decoded value before fulfilling: entities saved to its store,
/// response hooks, `fetch(_:)` with its response, and the offline fallback.
final class ResponseKeepingTests: XCTestCase {
    private static let note = #"{"id": "n1", "text": "hello"}"#

    /// A store whose saves always fail.
    private struct FullDisk: EntityStore {
        struct Failure: Error {}
        func save<Entity: StoredEntity>(_ entities: [Entity]) throws { throw Failure() }
        func read<Entity: StoredEntity>(_ type: Entity.Type, id: Entity.ID) throws -> Entity? { nil }
        func readAll<Entity: StoredEntity>(_ type: Entity.Type) throws -> [Entity] { [] }
        func delete<Entity: StoredEntity>(_ type: Entity.Type, id: Entity.ID) throws {}
        func deleteAll<Entity: StoredEntity>(_ type: Entity.Type) throws {}
    }

    /// A hook that records what it saw, and throws `failure` if given.
    private struct RecordingHook: ResponseHook {
        let seen: Locked<[String]>
        var failure: (any Error)?
        func decoded(_ value: any Sendable, response: HTTPResponse, request: RequestSummary) throws {
            seen.withLock { $0.append("\(request) \(response.statusCode) \(value)") }
            if let failure { throw failure }
        }
    }

    func test_anEntity_isInTheStoreWhenTheCallFulfils() async throws {
        let store = InMemoryEntityStore()
        let client = try makeClient(transport: StubTransport { _, _ in .json(Self.note) }) { $0.store = store }

        let value = try await client.send(Request<Note>(.get, "notes/n1")).value

        XCTAssertEqual(value, Note(id: "n1", text: "hello"))
        XCTAssertEqual(try store.read(Note.self, id: "n1"), value)
    }

    func test_anEntity_isSaved_beforeAnyHandlerOfTheCallRuns() async throws {
        let store = InMemoryEntityStore()
        let transport = ManualTransport()
        let client = try makeClient(transport: transport) { $0.store = store }
        // The handler is in place before the response arrives, so it runs as the call fulfils.
        let readByTheHandler = client.send(Request<Note>(.get, "notes/n1")).success { _ in try store.read(Note.self, id: "n1") }

        transport.exchange(0).fulfill(.json(Self.note))

        let read = try await readByTheHandler.value
        XCTAssertEqual(read, Note(id: "n1", text: "hello"))
    }

    func test_anArrayOfEntities_isSavedWhole_andOtherValuesAreNot() async throws {
        let store = InMemoryEntityStore()
        let client = try makeClient(transport: StubTransport { request, _ in
            request.url!.path.hasSuffix("counts") ? .json(#"[{"id": 1, "count": 5}, {"id": 2, "count": 6}]"#) : .json(#"{"id": "x", "text": "t"}"#)
        }) { $0.store = store }

        _ = try await client.send(Request<[Counted]>(.get, "counts")).value
        _ = try await client.send(Request<[String: String]>(.get, "plain")).value

        XCTAssertEqual(try store.readAll(Counted.self), [Counted(id: 1, count: 5), Counted(id: 2, count: 6)])
        XCTAssertEqual(try store.readAll(Note.self), [])
    }

    func test_aStoreThatFails_neverLosesTheResponse_andSaysSoInAnEvent() async throws {
        let monitor = RecordingMonitor()
        let client = try makeClient(transport: StubTransport { _, _ in .json(Self.note) }) {
            $0.store = FullDisk()
            $0.monitors = [monitor]
        }

        let value = try await client.send(Request<Note>(.get, "notes/n1")).value

        XCTAssertEqual(value.text, "hello")
        let failed = monitor.events.filter { $0.kind == .storeFailed }
        XCTAssertEqual(failed.count, 1)
        XCTAssertTrue(failed.first?.error is FullDisk.Failure)
        XCTAssertEqual(monitor.events.last?.kind, .succeeded)
    }

    func test_aStoreThatFails_failsTheCall_whenTheClientIsStrict() async throws {
        let client = try makeClient(transport: StubTransport { _, _ in .json(Self.note) }) {
            $0.store = FullDisk()
            $0.failsCallsWhenStoreFails = true
        }

        do {
            _ = try await client.send(Request<Note>(.get, "notes/n1")).value
            XCTFail("the call should have failed")
        } catch {
            XCTAssertTrue(error is FullDisk.Failure, "\(error)")
        }
    }

    func test_hooks_seeEachDecodedValueWithItsResponse_andAThrowFailsTheCall() async throws {
        let seen = Locked<[String]>([])
        struct Refused: Error {}
        let transport = StubTransport { _, _ in .json(Self.note, statusCode: 201) }
        let client = try makeClient(transport: transport) { $0.responseHooks = [RecordingHook(seen: seen)] }
        let refusing = try makeClient(transport: transport) { $0.responseHooks = [RecordingHook(seen: seen, failure: Refused())] }

        _ = try await client.send(Request<Note>(.post, "notes")).value
        let refused = await awaitError(refusing.send(Request<Note>(.post, "notes")))

        XCTAssertEqual(seen.value, [#"POST http://h/notes 201 Note(id: "n1", text: "hello")"#, #"POST http://h/notes 201 Note(id: "n1", text: "hello")"#])
        XCTAssertTrue(refused is Refused, "\(String(describing: refused))")
    }

    func test_answer_carriesTheResponseWithTheValue() async throws {
        let client = try makeClient(transport: StubTransport { _, _ in .json(Self.note, headers: ["ETag": "\"v1\""]) })

        let answer = try await client.fetch(Request<Note>(.get, "notes/n1")).value

        XCTAssertEqual(answer.value, Note(id: "n1", text: "hello"))
        XCTAssertEqual(answer.response?.statusCode, 200)
        XCTAssertEqual(answer.response?.headers["ETag"], "\"v1\"")
        XCTAssertFalse(answer.isFromStore)
        XCTAssertNil(answer.networkError)
    }

    func test_offline_aNetworkFailure_answersFromTheStore_markedAsStored() async throws {
        let store = InMemoryEntityStore()
        try store.save(Note(id: "n1", text: "saved earlier"))
        let monitor = RecordingMonitor()
        let client = try makeClient(transport: StubTransport { _, _ in throw URLError(.notConnectedToInternet) }) {
            $0.store = store
            $0.monitors = [monitor]
        }

        let answer = try await client.fetch(Request<Note>(.get, "notes/n1"), offline: .stored(id: "n1")).value
        let all = try await client.fetch(Request<[Note]>(.get, "notes"), offline: .allStored()).value

        XCTAssertEqual(answer.value.text, "saved earlier")
        XCTAssertTrue(answer.isFromStore)
        XCTAssertNil(answer.response)
        XCTAssertEqual((answer.networkError as? APIError)?.kind, .transport)
        XCTAssertEqual(all.value.map(\.id), ["n1"])
        XCTAssertEqual(monitor.events.filter { $0.kind == .servedFromStore }.count, 2)
    }

    func test_offline_aServerError_orNothingStored_failsAsUsual() async throws {
        let store = InMemoryEntityStore()
        try store.save(Note(id: "n1", text: "saved"))
        let notFound = try makeClient(transport: StubTransport { _, _ in .json(#"{"message": "not_found"}"#, statusCode: 404) }) { $0.store = store }
        let offline = try makeClient(transport: StubTransport { _, _ in throw URLError(.timedOut) }) { $0.store = store }

        let served = await awaitError(notFound.fetch(Request<Note>(.get, "notes/n1"), offline: .stored(id: "n1")))
        let missing = await awaitError(offline.fetch(Request<Note>(.get, "notes/n2"), offline: .stored(id: "n2")))
        let noFallback = await awaitError(offline.fetch(Request<Note>(.get, "notes/n1")))

        XCTAssertEqual((served as? APIError)?.statusCode, 404)
        XCTAssertEqual((missing as? APIError)?.kind, .transport)
        XCTAssertEqual((noFallback as? APIError)?.kind, .transport)
    }
}
