@testable import BatonClient
import TestSupport
import XCTest

/// ServerSentEventParser's memory bound: the event being built (data, the line not yet ended,
/// type and ID) may hold exactly `maximumEventSize` bytes, never one more, whatever the split;
/// nothing else grows, over any number of events; a parser that refused stays failed.
extension ServerSentEventParserTests {
    func test_aLineOfExactlyTheLimit_passes() {
        assertEventStream("data: 0123456789\n\n", limit: 16, gives: [event("0123456789")])
    }

    func test_aLineOneByteOverTheLimit_throws() {
        assertEventStream("data: 01234567890\n\n", limit: 16, gives: [], error: StreamElementTooLarge(limit: 16))
    }

    func test_theLimit_countsTheDataBufferWithTheLineBeingRead() {
        // After "data: aaaa" the data buffer holds "aaaa\n", 5 bytes; the next line may have 15.
        assertEventStream("data: aaaa\ndata: bbbbbbbbb\n\n", limit: 20, gives: [event("aaaa\nbbbbbbbbb")])
        assertEventStream("data: aaaa\ndata: bbbbbbbbbb\n\n", limit: 20, gives: [], error: StreamElementTooLarge(limit: 20))
    }

    func test_theLimit_countsTheType() {
        assertEventStream("event: abcd\ndata: 0123456789\n\n", limit: 20, gives: [event("0123456789", type: "abcd")])
        assertEventStream("event: abcde\ndata: 0123456789\n\n", limit: 20, gives: [], error: StreamElementTooLarge(limit: 20))
    }

    func test_theLimit_countsTheIDBuffer_whichOutlivesItsEvent() {
        assertEventStream("id: 0123\ndata: x\n\ndata: 0123456789\n\n", limit: 20,
                          gives: [event("x", id: "0123"), event("0123456789", id: "0123")], lastEventID: "0123")
        assertEventStream("id: 01234\ndata: x\n\ndata: 0123456789\n\n", limit: 20, gives: [event("x", id: "01234")],
                          lastEventID: "01234", error: StreamElementTooLarge(limit: 20))
    }

    func test_aLongCommentOrUnknownLine_isHeldToo_andRefused() {
        assertEventStream(": " + String(repeating: "c", count: 40) + "\n", limit: 32, gives: [],
                          error: StreamElementTooLarge(limit: 32))
    }

    func test_theStartOfAByteOrderMark_countsOnceItIsText() {
        let stream: [UInt8] = [0xEF, 0xBB] + Array("data: 01234567\n\n".utf8)
        assertEventStream(stream, limit: 16, gives: [])
        assertEventStream(stream, limit: 15, gives: [], error: StreamElementTooLarge(limit: 15))
    }

    func test_aLineThatNeverEnds_isRefusedAsSoonAsItPassesTheLimit() {
        var parser = ServerSentEventParser(maximumEventSize: 100)
        let chunk = Array("data: xxxx".utf8)
        var fed = 0
        XCTAssertThrowsError(try {
            while fed < 1_000 {
                try chunk.withUnsafeBytes { try parser.feed($0) { _ in XCTFail("an output") } }
                fed += 1
            }
        }()) { XCTAssertEqual($0 as? StreamElementTooLarge, StreamElementTooLarge(limit: 100)) }
        XCTAssertEqual(fed, 10, "the eleventh chunk passes 100 bytes")
        XCTAssertLessThanOrEqual(parser.heldBytes, 100)
    }

    func test_eventsBeforeTheRefusedOne_areEmitted() {
        assertEventStream("data: a\n\nretry: 7\ndata: " + String(repeating: "z", count: 30) + "\n\n", limit: 24,
                          gives: [event("a"), .retry(milliseconds: 7)], error: StreamElementTooLarge(limit: 24))
    }

    func test_aRefusingParser_throwsTheSameErrorFromThenOn() throws {
        var parser = ServerSentEventParser(maximumEventSize: 4)
        let long = Array("data: long\n\n".utf8)
        let short = Array("\n".utf8)
        let refusal = StreamElementTooLarge(limit: 4)
        XCTAssertThrowsError(try long.withUnsafeBytes { try parser.feed($0) { _ in } }) {
            XCTAssertEqual($0 as? StreamElementTooLarge, refusal)
        }
        XCTAssertThrowsError(try short.withUnsafeBytes { try parser.feed($0) { _ in XCTFail("an output") } }) {
            XCTAssertEqual($0 as? StreamElementTooLarge, refusal)
        }
        XCTAssertThrowsError(try parser.finish { _ in }) { XCTAssertEqual($0 as? StreamElementTooLarge, refusal) }
        XCTAssertEqual(refusal.description, "the stream holds an element larger than the limit of 4 bytes")
    }

    func test_dispatch_emptiesWhatTheEventHeld() throws {
        var parser = ServerSentEventParser(maximumEventSize: 64)
        try Array("event: t\ndata: 0123456789\ndata: 0123456789\n\n".utf8).withUnsafeBytes { try parser.feed($0) { _ in } }
        XCTAssertEqual(parser.heldBytes, 0)
        try Array("id: 42\ndata: half".utf8).withUnsafeBytes { try parser.feed($0) { _ in } }
        XCTAssertEqual(parser.heldBytes, 2 + 10, "the ID buffer and the line not yet ended")
        try parser.finish { _ in XCTFail("an output at the end") }
        XCTAssertEqual(parser.heldBytes, 0)
    }

    func test_aHundredThousandEventsThroughAOneKibibyteLimit_areAllRead_inBoundedMemory() throws {
        var stream: [UInt8] = []
        for number in 0..<100_000 {
            stream += Array("id: \(number)\nevent: tick\ndata: payload \(number)\ndata: second line\n\n".utf8)
        }
        var parser = ServerSentEventParser(maximumEventSize: 1024)
        var count = 0
        var mostHeld = 0
        for start in stride(from: 0, to: stream.count, by: 4093) {
            try stream[start..<min(stream.count, start + 4093)].withUnsafeBytes { bytes in
                try parser.feed(bytes) { output in
                    XCTAssertEqual(output, event("payload \(count)\nsecond line", type: "tick", id: "\(count)"))
                    count += 1
                }
            }
            mostHeld = max(mostHeld, parser.heldBytes)
        }
        try parser.finish { _ in XCTFail("an output at the end") }
        XCTAssertEqual(count, 100_000)
        XCTAssertEqual(parser.lastEventID, "99999")
        XCTAssertLessThanOrEqual(mostHeld, 1024)
    }
}
