@testable import BatonClient
import TestSupport
import XCTest

/// ServerSentEventParser reads event streams as the HTML standard's "event stream
/// interpretation" says: its own examples, its line ends, fields, dispatch, UTF-8 decoding and
/// byte order mark, the end of a stream; every stream fed whole, a byte at a time, cut in two at
/// every place and in seeded random chunks, with the same outputs every way. Limits and failure:
/// ServerSentEventParserTests+Limits.swift.
final class ServerSentEventParserTests: XCTestCase {
    // MARK: - The standard's examples

    func test_standardsStockTickerExample_givesOneEventOfThreeLines() {
        assertEventStream("data: YHOO\ndata: +2\ndata: 10\n\n", gives: [event("YHOO\n+2\n10")])
    }

    func test_standardsFourBlockExample_givesThreeEventsAndClearsTheIDWithAnEmptyIDField() {
        let stream = ": test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n\n"
        assertEventStream(stream, gives: [event("first event", id: "1"), event("second event"), event(" third event")],
                          lastEventID: "")
    }

    func test_standardsFourBlockExample_withoutItsLastBlankLine_dropsTheLastEvent() {
        let stream = ": test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n"
        assertEventStream(stream, gives: [event("first event", id: "1"), event("second event")], lastEventID: "")
    }

    func test_standardsEmptyDataExample_givesAnEmptyEventThenANewlineAndDropsTheUnfinishedBlock() {
        assertEventStream("data\n\ndata\ndata\n\ndata:", gives: [event(""), event("\n")])
    }

    func test_standardsSpaceAfterColonExample_givesTwoIdenticalEvents() {
        assertEventStream("data:test\n\ndata: test\n\n", gives: [event("test"), event("test")])
    }

    // MARK: - Line ends

    func test_crlfCrAndLf_endLinesAlike_evenMixed() {
        let expected = [event("a\nb", type: "t"), event("c")]
        for stream in ["event: t\ndata: a\ndata: b\n\ndata: c\n\n", "event: t\r\ndata: a\r\ndata: b\r\n\r\ndata: c\r\n\r\n",
                       "event: t\rdata: a\rdata: b\r\rdata: c\r\r", "event: t\r\ndata: a\rdata: b\n\r\ndata: c\r\n\r"] {
            assertEventStream(stream, gives: expected)
        }
    }

    func test_aCREndingOneChunkAndAnLFStartingTheNext_areOneLineEnd() throws {
        let outputs = try feedEventStream(chunks: ["data: a\r", "\ndata: b\r", "\n\r", "\n"])
        XCTAssertEqual(outputs, [event("a\nb")])
    }

    func test_crCrLf_isTwoLineEnds_soItEndsTheEvent() {
        assertEventStream("data: a\r\r\ndata: b\n\n", gives: [event("a"), event("b")])
    }

    func test_aBlankLineEndedByCR_dispatchesBeforeTheNextChunkArrives() throws {
        var parser = ServerSentEventParser(maximumEventSize: 1024)
        var outputs: [ServerSentEventParser.Output] = []
        try Array("data: now\n\r".utf8).withUnsafeBytes { try parser.feed($0) { outputs.append($0) } }
        XCTAssertEqual(outputs, [event("now")])
    }

    // MARK: - Fields

    func test_eventField_setsTheTypeForOneEventOnly() {
        assertEventStream("event: add\ndata: 73857293\n\ndata: 2153\n\n",
                          gives: [event("73857293", type: "add"), event("2153")])
    }

    func test_emptyEventField_givesTheMessageType() {
        assertEventStream("event:\ndata: a\n\nevent\ndata: b\n\n", gives: [event("a"), event("b")])
    }

    func test_aBlockWithATypeButNoData_dispatchesNothingAndForgetsTheType() {
        assertEventStream("event: add\n\ndata: x\n\n", gives: [event("x")])
    }

    func test_valueAfterTheFirstColon_keepsLaterColons() {
        assertEventStream("data: a:b: c\n\n", gives: [event("a:b: c")])
    }

    func test_onlyOneSpaceAfterTheColon_isRemoved_andATabIsKept() {
        assertEventStream("data:  two\n\ndata:\tx\n\n", gives: [event(" two"), event("\tx")])
    }

    func test_aLineWithoutColon_isAFieldWithAnEmptyValue() {
        assertEventStream("data\ndata: x\n\n", gives: [event("\nx")])
    }

    func test_fieldNames_areCaseSensitiveAndExact() {
        assertEventStream("Data: a\ndata : b\nDATA:c\n\n", gives: [])
    }

    func test_unknownFields_areIgnored() {
        assertEventStream("foo: bar\ndata: x\nevent2: y\n\n", gives: [event("x")])
    }

    func test_comments_areIgnored_andACommentOnlyBlockDispatchesNothing() {
        assertEventStream(": hello\n\n: keep-alive\ndata: x\n:data: y\n\n", gives: [event("x")])
    }

    // MARK: - The last event ID

    func test_id_persistsAcrossLaterEvents() {
        assertEventStream("id: 7\ndata: a\n\ndata: b\n\n", gives: [event("a", id: "7"), event("b", id: "7")], lastEventID: "7")
    }

    func test_idAfterTheDataOfItsBlock_appliesToThatEvent() {
        assertEventStream("data: a\nid: 5\n\n", gives: [event("a", id: "5")], lastEventID: "5")
    }

    func test_idContainingNUL_isIgnored() {
        assertEventStream("id: 1\ndata: a\n\nid: 2\u{0}3\ndata: b\n\n", gives: [event("a", id: "1"), event("b", id: "1")],
                          lastEventID: "1")
    }

    func test_anEmptyID_clearsTheLastEventID() {
        assertEventStream("id: 1\ndata: a\n\nid\ndata: b\n\n", gives: [event("a", id: "1"), event("b")], lastEventID: "")
    }

    func test_anIDOnlyBlock_setsTheLastEventIDWithoutAnEvent() {
        assertEventStream("id: 9\n\n", gives: [], lastEventID: "9")
    }

    func test_anIDInABlockTheStreamEndsBefore_neverBecomesTheLastEventID() {
        assertEventStream("id: 1\ndata: a\n\nid: 2\ndata: b\n", gives: [event("a", id: "1")], lastEventID: "1")
    }

    // MARK: - Retry

    func test_retryWithDigits_isEmittedAtOnce_inStreamOrder() {
        assertEventStream("data: a\n\nretry: 3000\nretry: 0010\n", gives: [event("a"), .retry(milliseconds: 3000),
                                                                          .retry(milliseconds: 10)])
    }

    func test_retryWithAnythingButDigits_isIgnored() {
        let values = ["3s", "-1", "+1", "1.5", "", " 10", "10 ", "1_000", "\u{0661}\u{0662}", "0x10"]
        assertEventStream(values.map { "retry: \($0)\n" }.joined() + "retry\n", gives: [])
    }

    func test_retryTooLargeForInt_isTheLongestWait() {
        assertEventStream("retry: 99999999999999999999999999\n", gives: [.retry(milliseconds: .max)])
    }

    // MARK: - UTF-8 and the byte order mark

    func test_multiByteCharacters_surviveAnySplit() {
        assertEventStream("event: 注文\ndata: 山田さん 🎉\nid: é\n\n", gives: [event("山田さん 🎉", type: "注文", id: "é")], lastEventID: "é")
    }

    func test_invalidUTF8_becomesReplacementCharacters() {
        let stream: [UInt8] = Array("data: a".utf8) + [0xFF] + Array("b".utf8) + [0xE2, 0x82] + Array("\n\n".utf8)
        assertEventStream(stream, gives: [event("a\u{FFFD}b\u{FFFD}")])
    }

    func test_aByteOrderMarkAtTheStart_isSkipped_evenSplitAcrossChunks() throws {
        assertEventStream("\u{FEFF}data: x\n\n", gives: [event("x")])
        XCTAssertEqual(try feedEventStream(bytes: [[0xEF], [0xBB], [0xBF], Array("data: x\n\n".utf8)]), [event("x")])
    }

    func test_theStartOfAByteOrderMark_isText() {
        let stream: [UInt8] = [0xEF, 0xBB] + Array("data: x\n\ndata: y\n\n".utf8)
        assertEventStream(stream, gives: [event("y")])
    }

    func test_aByteOrderMarkNotAtTheStart_isKept() {
        assertEventStream("\u{FEFF}\u{FEFF}data: a\n\ndata: \u{FEFF}b\n\n\u{FEFF}data: c\n\n", gives: [event("\u{FEFF}b")])
    }

    // MARK: - End of stream

    func test_anEventWithoutItsBlankLine_isDiscardedAtTheEnd() {
        assertEventStream("data: a\n\ndata: b\n", gives: [event("a")])
    }

    func test_aLastLineWithoutItsLineEnd_isDiscarded() {
        assertEventStream("data: a\n\nretry: 5", gives: [event("a")])
    }

    func test_anEmptyStream_givesNothing() {
        assertEventStream("", gives: [])
    }

    // MARK: - Every split alike

    func test_aMixedStream_givesTheSameOutputsWholeByteByByteAndInTwentyRandomSplits() throws {
        var stream: [UInt8] = [0xEF, 0xBB, 0xBF]
        stream += Array(": hi\r\nretry: 250\r\nevent: 注文\rid: 1\ndata: 山田\r\ndata\r\r\n\ndata: \u{FEFF}🎉\r\n\r".utf8)
        stream += [0xC3] + Array("\ndata: z\nid\n\n".utf8)
        let whole = try feedEventStream(bytes: [stream])
        XCTAssertEqual(whole, [.retry(milliseconds: 250), event("山田\n", type: "注文", id: "1"), event("\u{FEFF}🎉", id: "1"),
                               event("z")])
        for seed in UInt64(1)...20 {
            let chunks = StreamSplit.random(seed: seed).chunks(count: stream.count).map { Array(stream[$0]) }
            XCTAssertEqual(try feedEventStream(bytes: chunks), whole, "seed \(seed)")
        }
    }

    func test_anErrorThrownByEmit_isPassedOn() {
        var parser = ServerSentEventParser(maximumEventSize: 1024)
        struct Stop: Error {}
        XCTAssertThrowsError(try Array("data: a\n\n".utf8).withUnsafeBytes { try parser.feed($0) { _ in throw Stop() } }) {
            XCTAssert($0 is Stop)
        }
    }
}

// MARK: - Helpers, shared with the limits' tests

/// An event output, with the defaults of `ServerSentEvent`.
func event(_ data: String, type: String = "message", id: String = "") -> ServerSentEventParser.Output {
    .event(ServerSentEvent(type: type, data: data, id: id))
}

/// What one parse of a stream gave: its outputs, the error if one was thrown, the last event ID.
struct ParsedEventStream: Equatable {
    var outputs: [ServerSentEventParser.Output] = []
    var error: StreamElementTooLarge?
    var lastEventID = ""
}

/// Feeds `bytes` to a parser in the chunks `split` makes, then finishes it.
func parseEventStream(_ bytes: [UInt8], limit: Int, split: StreamSplit) -> ParsedEventStream {
    var parser = ServerSentEventParser(maximumEventSize: limit)
    var parsed = ParsedEventStream()
    do {
        for range in split.chunks(count: bytes.count) {
            try bytes[range].withUnsafeBytes { try parser.feed($0) { parsed.outputs.append($0) } }
            XCTAssertLessThanOrEqual(parser.heldBytes, limit, "held past the limit, fed \(split)")
        }
        try parser.finish { parsed.outputs.append($0) }
    } catch let error as StreamElementTooLarge {
        parsed.error = error
    } catch {
        XCTFail("not StreamElementTooLarge: \(error)")
    }
    parsed.lastEventID = parser.lastEventID
    return parsed
}

/// The outputs of `chunks` fed one after the other, then the end of the stream.
func feedEventStream(chunks: [String], limit: Int = 1024) throws -> [ServerSentEventParser.Output] {
    try feedEventStream(bytes: chunks.map { Array($0.utf8) }, limit: limit)
}

/// The outputs of byte `chunks` fed one after the other, then the end of the stream.
func feedEventStream(bytes chunks: [[UInt8]], limit: Int = 1024) throws -> [ServerSentEventParser.Output] {
    var parser = ServerSentEventParser(maximumEventSize: limit)
    var outputs: [ServerSentEventParser.Output] = []
    for chunk in chunks { try chunk.withUnsafeBytes { try parser.feed($0) { outputs.append($0) } } }
    try parser.finish { outputs.append($0) }
    return outputs
}

extension XCTestCase {
    /// Asserts that `text`, fed every way, gives `outputs` and leaves `lastEventID`.
    func assertEventStream(_ text: String, limit: Int = 1024, gives outputs: [ServerSentEventParser.Output],
                           lastEventID: String = "", error: StreamElementTooLarge? = nil,
                           file: StaticString = #filePath, line: UInt = #line) {
        assertEventStream(Array(text.utf8), limit: limit, gives: outputs, lastEventID: lastEventID, error: error,
                          file: file, line: line)
    }

    /// Asserts that `bytes`, fed every way, give `outputs`, leave `lastEventID` and end with `error`.
    func assertEventStream(_ bytes: [UInt8], limit: Int = 1024, gives outputs: [ServerSentEventParser.Output],
                           lastEventID: String = "", error: StreamElementTooLarge? = nil,
                           file: StaticString = #filePath, line: UInt = #line) {
        let expected = ParsedEventStream(outputs: outputs, error: error, lastEventID: lastEventID)
        for split in StreamSplit.all(count: bytes.count) {
            let parsed = parseEventStream(bytes, limit: limit, split: split)
            guard parsed == expected else {
                XCTFail("fed \(split):\n  got      \(parsed)\n  expected \(expected)", file: file, line: line)
                return
            }
        }
    }
}
