import XCTest
@testable import DemoServer

/// The parsers of `Range`, `If-Range`, `If-None-Match` and entity tags, on strings alone: what
/// they take, what they refuse, and that no input makes them trap.
final class ConditionalHeaderParsingTests: XCTestCase {
    // MARK: Range

    func test_range_readsTheThreeForms() {
        XCTAssertEqual(ByteRange.parse(["bytes=0-99"]), .from(first: 0, last: 99))
        XCTAssertEqual(ByteRange.parse(["bytes=500-"]), .from(first: 500, last: nil))
        XCTAssertEqual(ByteRange.parse(["bytes=-20"]), .suffix(length: 20))
        XCTAssertEqual(ByteRange.parse(["Bytes=7-7"]), .from(first: 7, last: 7), "the unit is case-insensitive")
        XCTAssertEqual(ByteRange.parse(["bytes=0010-0020"]), .from(first: 10, last: 20))
    }

    func test_range_takesEmptyListElementsAndWhitespaceAroundTheOneRange() {
        XCTAssertEqual(ByteRange.parse(["bytes=,0-1"]), .from(first: 0, last: 1))
        XCTAssertEqual(ByteRange.parse(["bytes= 0-1 ,\t,"]), .from(first: 0, last: 1))
    }

    func test_range_refusesSeveralRanges_otherUnits_andMalformedSpecs() {
        let refused = ["bytes=0-1,2-3", "bytes=0-1, -5", "items=0-1", "bytes =0-1", "bytes= ", "bytes=", "bytes", "=0-1", "",
                       "bytes=-", "bytes=--1", "bytes=1--2", "bytes=1-2-3", "bytes=a-b", "bytes=+1-2", "bytes=1-+2",
                       "bytes=-+2", "bytes=1 -2", "bytes=1- 2", "bytes=0x1-2", "bytes=١-٢", "bytes=5-4", "bytes==0-1",
                       "bytes=0-1;q=1", "bytes=\u{0}0-1"]
        for value in refused {
            XCTAssertNil(ByteRange.parse([value]), value)
        }
        XCTAssertNil(ByteRange.parse([]), "no Range")
        XCTAssertNil(ByteRange.parse(["bytes=0-1", "bytes=2-3"]), "two Range lines")
    }

    func test_aRangeNumberLongerThanInt_saturates_insteadOfTrapping() {
        let huge = String(repeating: "9", count: 400)
        XCTAssertEqual(ByteRange.parse(["bytes=\(huge)-"]), .from(first: .max, last: nil))
        XCTAssertEqual(ByteRange.parse(["bytes=0-\(huge)"]), .from(first: 0, last: .max))
        XCTAssertEqual(ByteRange.parse(["bytes=-\(huge)"]), .suffix(length: .max))
        XCTAssertEqual(ByteRange.parse(["bytes=\(huge)-\(huge)"]), .from(first: .max, last: .max))
        XCTAssertEqual(ByteRange.parse(["bytes=9223372036854775807-"]), .from(first: .max, last: nil))
        XCTAssertEqual(ByteRange.parse(["bytes=9223372036854775808-"]), .from(first: .max, last: nil))
    }

    func test_range_resolvesAgainstTheLength() {
        XCTAssertEqual(ByteRange.from(first: 0, last: 99).resolve(length: 1000), .partial(0...99))
        XCTAssertEqual(ByteRange.from(first: 990, last: 5000).resolve(length: 1000), .partial(990...999))
        XCTAssertEqual(ByteRange.from(first: 10, last: nil).resolve(length: 1000), .partial(10...999))
        XCTAssertEqual(ByteRange.from(first: 999, last: .max).resolve(length: 1000), .partial(999...999))
        XCTAssertEqual(ByteRange.suffix(length: 100).resolve(length: 1000), .partial(900...999))
        XCTAssertEqual(ByteRange.suffix(length: .max).resolve(length: 1000), .partial(0...999))
    }

    func test_aRangeWithNoByteOfTheRepresentation_isUnsatisfiable() {
        XCTAssertEqual(ByteRange.from(first: 1000, last: nil).resolve(length: 1000), .unsatisfiable)
        XCTAssertEqual(ByteRange.from(first: .max, last: .max).resolve(length: 1000), .unsatisfiable)
        XCTAssertEqual(ByteRange.from(first: 0, last: 0).resolve(length: 0), .unsatisfiable)
        XCTAssertEqual(ByteRange.suffix(length: 0).resolve(length: 1000), .unsatisfiable)
    }

    func test_aSuffixOfAnEmptyRepresentation_isTheWholeOfIt() {
        XCTAssertEqual(ByteRange.suffix(length: 5).resolve(length: 0), .whole)
    }

    // MARK: Entity tags

    func test_entityTag_readsStrongAndWeakTags_andWritesThemBack() {
        XCTAssertEqual(EntityTag.parse("\"abc\""), EntityTag(opaque: "abc"))
        XCTAssertEqual(EntityTag.parse("W/\"abc\""), EntityTag(opaque: "abc", isWeak: true))
        XCTAssertEqual(EntityTag.parse("\"\""), EntityTag(opaque: ""), "an empty opaque tag is a tag")
        XCTAssertEqual(EntityTag.parse("\"a,W/c\""), EntityTag(opaque: "a,W/c"))
        XCTAssertEqual(EntityTag(opaque: "x", isWeak: true).description, "W/\"x\"")
        XCTAssertEqual(EntityTag(opaque: "x").description, "\"x\"")
    }

    func test_entityTag_refusesWhatIsNotExactlyOneTag() {
        for text in ["abc", "\"abc", "abc\"", "w/\"abc\"", "W/abc", "W/ \"abc\"", "\"a\"b", "\"a\" ", "\"a\"\"b\"", "\"a b\"",
                     "\"a\tb\"", "\"a\u{7f}b\"", "", "W/", "W/\""] {
            XCTAssertNil(EntityTag.parse(text), text)
        }
    }

    func test_strongComparison_needsBothStrong_weakComparisonDoesNot() {
        let strong = EntityTag(opaque: "v1")
        let weak = EntityTag(opaque: "v1", isWeak: true)
        XCTAssertTrue(strong.matchesStrongly(strong))
        XCTAssertFalse(weak.matchesStrongly(strong))
        XCTAssertFalse(strong.matchesStrongly(weak))
        XCTAssertTrue(weak.matchesWeakly(strong))
        XCTAssertTrue(strong.matchesWeakly(weak))
        XCTAssertFalse(strong.matchesWeakly(EntityTag(opaque: "v2")))
    }

    // MARK: If-None-Match

    func test_ifNoneMatch_readsStar_andListsOverOneOrMoreLines() {
        XCTAssertEqual(IfNoneMatch.parse(["*"]), .any)
        XCTAssertEqual(IfNoneMatch.parse(["\"a\", W/\"b\""]), .tags([EntityTag(opaque: "a"), EntityTag(opaque: "b", isWeak: true)]))
        XCTAssertEqual(IfNoneMatch.parse([",\"a\" ,, \"b,c\","]), .tags([EntityTag(opaque: "a"), EntityTag(opaque: "b,c")]))
        XCTAssertEqual(IfNoneMatch.parse(["\"a\"", "\"b\""]), .tags([EntityTag(opaque: "a"), EntityTag(opaque: "b")]))
    }

    func test_ifNoneMatch_refusesMalformedLists() {
        for values in [["\"a\" \"b\""], ["\"a\"x"], ["a"], ["*, \"a\""], ["\"a\", *"], ["*", "*"], ["*", "\"a\""], [""], [", ,"],
                       ["\"a"], []] {
            XCTAssertNil(IfNoneMatch.parse(values), "\(values)")
        }
    }

    func test_ifNoneMatch_matchesByWeakComparison() {
        let current = EntityTag(opaque: "v1")
        XCTAssertTrue(IfNoneMatch.any.matches(current))
        XCTAssertTrue(IfNoneMatch.tags([EntityTag(opaque: "v0"), EntityTag(opaque: "v1", isWeak: true)]).matches(current))
        XCTAssertFalse(IfNoneMatch.tags([EntityTag(opaque: "v0")]).matches(current))
    }

    // MARK: If-Range

    func test_ifRange_readsATagOrADate() {
        XCTAssertEqual(IfRange.parse(["\"v1\""], now: 0), .entityTag(EntityTag(opaque: "v1")))
        XCTAssertEqual(IfRange.parse(["W/\"v1\""], now: 0), .entityTag(EntityTag(opaque: "v1", isWeak: true)))
        XCTAssertEqual(IfRange.parse(["Sun, 06 Nov 1994 08:49:37 GMT"], now: 0), .date(784_111_777))
    }

    func test_ifRange_refusesListsRepeatsAndGarbage() {
        for values in [["\"a\", \"b\""], ["\"a\"", "\"a\""], ["yesterday"], [""], ["W/x"], []] {
            XCTAssertNil(IfRange.parse(values, now: 0), "\(values)")
        }
    }

    func test_ifRange_holdsForTheSameStrongTag_orTheExactDate_only() {
        let etag = EntityTag(opaque: "v1")
        XCTAssertTrue(IfRange.entityTag(etag).holds(etag: etag, lastModified: nil))
        XCTAssertFalse(IfRange.entityTag(EntityTag(opaque: "v1", isWeak: true)).holds(etag: etag, lastModified: nil))
        XCTAssertFalse(IfRange.entityTag(EntityTag(opaque: "v0")).holds(etag: etag, lastModified: nil))
        XCTAssertTrue(IfRange.date(100).holds(etag: etag, lastModified: 100))
        XCTAssertFalse(IfRange.date(101).holds(etag: etag, lastModified: 100))
        XCTAssertFalse(IfRange.date(100).holds(etag: etag, lastModified: nil), "no Last-Modified, no date matches")
    }

    // MARK: Any bytes

    /// Every short string over the bytes these grammars use, and random longer ones: no parser
    /// traps, and what a range resolves to always lies within the representation.
    func test_noInput_makesAParserTrap() {
        let alphabet = Array("bytes=0123456789-, \t\"W/*".utf8) + [0x00, 0x7f, 0xff]
        var generator = SplitMix64(seed: 7)
        for round in 0..<20_000 {
            let length = round < 2000 ? round % 6 : Int(generator.next() % 40)
            let bytes = (0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }
            let text = String(decoding: bytes, as: UTF8.self)
            if let range = ByteRange.parse([text]) {
                for length in [0, 1, 10, 1000] {
                    if case .partial(let selected) = range.resolve(length: length) {
                        XCTAssertTrue(selected.lowerBound >= 0 && selected.upperBound < length, "\(text) on \(length) bytes")
                    }
                }
            }
            if let tag = EntityTag.parse(text) { XCTAssertEqual(EntityTag.parse(tag.description), tag) }
            _ = IfNoneMatch.parse([text])
            _ = IfRange.parse([text], now: 0)
        }
    }
}
