import XCTest
@testable import DemoServer

/// The `Idempotency-Key` parser, the store of keys and the request fingerprints, without a socket.
final class IdempotencyStoreTests: XCTestCase {
    // MARK: The key

    func test_key_isAQuotedStringOrABareToken_ofVisibleASCII() {
        XCTAssertEqual(IdempotencyKey.parse(["\"abc\""]), .key("abc"))
        XCTAssertEqual(IdempotencyKey.parse(["abc"]), .key("abc"))
        XCTAssertEqual(IdempotencyKey.parse(["8e03978e-40d5-43e8-bc93-6894a57f9324"]), .key("8e03978e-40d5-43e8-bc93-6894a57f9324"))
        XCTAssertEqual(IdempotencyKey.parse(["\"a\\\"b\\\\c\""]), .key("a\"b\\c"), "escapes undone")
        XCTAssertEqual(IdempotencyKey.parse(["\"{,;=}\""]), .key("{,;=}"))
        XCTAssertEqual(IdempotencyKey.parse([String(repeating: "k", count: 255)]), .key(String(repeating: "k", count: 255)))
        XCTAssertEqual(IdempotencyKey.parse([]), .absent)
    }

    func test_key_refusesEverythingElse() {
        let refused = ["", "\"\"", "\"a b\"", "a b", "\"a", "a\"", "\"a\"b", "\"a\";p=1", "a;p=1", "a,b", "\"\\a\"", "\"a\\\"",
                       "\"\u{7f}\"", "\"\u{1}\"", "\"é\"", "é", String(repeating: "k", count: 256),
                       "\"" + String(repeating: "k", count: 256) + "\"", "(a)", "a=b"]
        for value in refused {
            XCTAssertEqual(IdempotencyKey.parse([value]), .malformed, value)
        }
        XCTAssertEqual(IdempotencyKey.parse(["a", "a"]), .malformed, "two lines")
    }

    func test_anEscapedQuoteCounts_asOneCharacterOfTheKey() {
        let key = String(repeating: "\\\"", count: 255)
        XCTAssertEqual(IdempotencyKey.parse(["\"\(key)\""]), .key(String(repeating: "\"", count: 255)))
    }

    // MARK: The store

    func test_aFreeKey_isReserved_thenBusy_untilResponded_thenAnswered() {
        var store = IdempotencyStore()
        guard case .reserved(let token) = store.arrive("k") else { return XCTFail("a free key is reserved") }
        XCTAssertEqual(store.arrive("k"), .busy)
        let fingerprint = Fingerprint(["POST", "/x"])
        store.remember("k", token: token, fingerprint: fingerprint, response: ServerResponse(status: 201))
        XCTAssertEqual(store.arrive("k"), .answered)
        guard case .replay(let response) = store.decide("k", token: nil, fingerprint: fingerprint) else {
            return XCTFail("the same request is replayed")
        }
        XCTAssertEqual(response.status, 201)
        guard case .conflict = store.decide("k", token: nil, fingerprint: Fingerprint(["POST", "/y"])) else {
            return XCTFail("another request is a conflict")
        }
    }

    func test_aReleasedKey_isFreeAgain_andALaterHoldersKeyIsNotReleasedByAnEarlierToken() {
        var store = IdempotencyStore()
        guard case .reserved(let first) = store.arrive("k") else { return XCTFail() }
        store.release("k", token: first)
        guard case .reserved(let second) = store.arrive("k") else { return XCTFail("released, the key is free") }
        store.release("k", token: first)
        XCTAssertEqual(store.arrive("k"), .busy, "only its holder frees a key")
        store.remember("k", token: first, fingerprint: Fingerprint(["a"]), response: ServerResponse(status: 200))
        guard case .handle = store.decide("k", token: second, fingerprint: Fingerprint(["b"])) else {
            return XCTFail("only its holder's answer is remembered")
        }
    }

    func test_aRequestWhoseKeyAnotherNowHolds_isBusy_andOneWhoseKeyWasForgotten_isHandled() {
        var store = IdempotencyStore()
        guard case .reserved(let holder) = store.arrive("k") else { return XCTFail("a free key is reserved") }
        guard case .busy = store.decide("k", token: holder + 1, fingerprint: Fingerprint(["a"])) else {
            return XCTFail("another request holds the key")
        }
        guard case .handle = IdempotencyStore().decide("k", token: holder, fingerprint: Fingerprint(["a"])) else {
            return XCTFail("a key forgotten by a reset is handled")
        }
    }

    // MARK: Fingerprints

    func test_fingerprints_tellPartsApart_byTheirLengths() {
        XCTAssertEqual(Fingerprint(["ab", "c"]), Fingerprint(["ab", "c"]))
        XCTAssertNotEqual(Fingerprint(["ab", "c"]), Fingerprint(["a", "bc"]))
        XCTAssertNotEqual(Fingerprint(["a", ""]), Fingerprint(["a"]))
    }

    // MARK: Which responses are remembered

    func test_successesAndRefusals_butNot5xxOr409_areRemembered() {
        XCTAssertEqual([200, 201, 204, 400, 404, 413, 415, 422].filter(DemoAPI.isRemembered), [200, 201, 204, 400, 404, 413, 415, 422])
        XCTAssertEqual([409, 500, 503, 100, 302].filter(DemoAPI.isRemembered), [])
    }
}
