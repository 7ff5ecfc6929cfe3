import XCTest
@testable import DemoServer

/// The server's own JSON reader and writer.
final class JSONTests: XCTestCase {
    func test_parser_keepsIntegersApartFromOtherNumbers() {
        XCTAssertEqual(JSONParser.parse(Array("4".utf8)), .integer(4))
        XCTAssertEqual(JSONParser.parse(Array("4.5".utf8)), .number(4.5))
        XCTAssertEqual(JSONParser.parse(Array("4e0".utf8)), .number(4))
        XCTAssertEqual(JSONParser.parse(Array("true".utf8)), .bool(true))
    }

    func test_parser_decodesEscapesAndSurrogatePairs() {
        let text = #"{"s": "a\"b\\c\n\u00e9\ud83d\ude00 山田"}"#
        XCTAssertEqual(JSONParser.parse(Array(text.utf8)), .object([("s", .string("a\"b\\c\né😀 山田"))]))
    }

    func test_parser_refusesInvalidDocuments() {
        for text in ["", "{", "{\"a\":}", "[1,]", "01", "1.", "\"\u{1}\"", "{\"a\":1} x", "nul", "-", "[1 2]", "{'a':1}"] {
            XCTAssertNil(JSONParser.parse(Array(text.utf8)), text)
        }
    }

    func test_parser_refusesNestingDeeperThanItsLimit() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        XCTAssertNil(JSONParser.parse(Array(deep.utf8)))
        let allowed = String(repeating: "[", count: 60) + String(repeating: "]", count: 60)
        XCTAssertNotNil(JSONParser.parse(Array(allowed.utf8)))
    }

    func test_writer_escapesControlCharactersAndKeepsUTF8() {
        let value = JSONValue.object([("k", .string("\"\\\n\u{1}山")), ("n", .integer(-3)), ("a", .array([.null, .bool(false)]))])
        XCTAssertEqual(String(decoding: value.serialized(), as: UTF8.self), #"{"k":"\"\\\n\u0001山","n":-3,"a":[null,false]}"#)
    }
}
