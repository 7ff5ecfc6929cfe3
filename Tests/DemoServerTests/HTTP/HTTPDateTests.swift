import XCTest
@testable import DemoServer

/// HTTP-dates (RFC 9110 §5.6.7): written as IMF-fixdate, read in its three forms, strictly.
final class HTTPDateTests: XCTestCase {
    /// RFC 9110's own example, `Sun, 06 Nov 1994 08:49:37 GMT`.
    private let example: Int64 = 784_111_777
    /// 2026-01-01 00:00:00 UTC: the "now" two-digit years are read against.
    private let now: Int64 = 1_767_225_600

    func test_format_writesIMFFixdate() {
        XCTAssertEqual(HTTPDate.format(example), "Sun, 06 Nov 1994 08:49:37 GMT")
        XCTAssertEqual(HTTPDate.format(0), "Thu, 01 Jan 1970 00:00:00 GMT")
        XCTAssertEqual(HTTPDate.format(951_782_400), "Tue, 29 Feb 2000 00:00:00 GMT")
        XCTAssertEqual(HTTPDate.format(4_102_444_799), "Thu, 31 Dec 2099 23:59:59 GMT")
    }

    func test_format_agreesWithFoundation_overTwoCenturies() {
        var generator = SplitMix64(seed: 3)
        for _ in 0..<2000 {
            let seconds = Int64(generator.next() % 6_000_000_000)
            let date = Date(timeIntervalSince1970: TimeInterval(seconds))
            XCTAssertEqual(HTTPDate.format(seconds), TestHTTPDate.string(date))
            XCTAssertEqual(HTTPDate.parse(HTTPDate.format(seconds), now: now), seconds)
        }
    }

    func test_parse_readsTheThreeForms() {
        XCTAssertEqual(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT", now: now), example)
        XCTAssertEqual(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT", now: now), example)
        XCTAssertEqual(HTTPDate.parse("Sun Nov  6 08:49:37 1994", now: now), example)
        XCTAssertEqual(HTTPDate.parse("Sun Nov 16 08:49:37 1994", now: now), example + 10 * 86_400)
    }

    func test_anRFC850TwoDigitYear_isTheYearAtMostFiftyYearsAhead() {
        func year(_ twoDigits: String) -> String? {
            HTTPDate.parse("Thursday, 01-Jan-\(twoDigits) 00:00:00 GMT", now: now).map { String(HTTPDate.format($0).dropFirst(12).prefix(4)) }
        }
        XCTAssertEqual(year("26"), "2026")
        XCTAssertEqual(year("76"), "2076", "50 years ahead of 2026")
        XCTAssertEqual(year("77"), "1977", "51 years ahead would be more than 50")
        XCTAssertEqual(year("94"), "1994")
        XCTAssertEqual(year("00"), "2000")
    }

    func test_parse_refusesWhatIsNotExactlyADate() {
        let refused = [
            "", "Sun, 06 Nov 1994 08:49:37 gmt", "sun, 06 Nov 1994 08:49:37 GMT", "Sun, 06 nov 1994 08:49:37 GMT",
            "Sun,  06 Nov 1994 08:49:37 GMT", "Sun, 6 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 94 08:49:37 GMT",
            "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 06 Nov 1994 08:49:37 GMT ", " Sun, 06 Nov 1994 08:49:37 GMT",
            "Sun, 06 Nov 1994 8:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Nov 1994 08:60:00 GMT",
            "Sun, 06 Nov 1994 08:49:60 GMT", "Sun, 31 Nov 1994 08:49:37 GMT", "Sun, 00 Nov 1994 08:49:37 GMT",
            "Sun, 29 Feb 1900 08:49:37 GMT", "Sun, 29 Feb 1995 08:49:37 GMT", "Xyz, 06 Nov 1994 08:49:37 GMT",
            "Sun, 06 Nov 1994 08:49:37 GMT, Sun, 06 Nov 1994 08:49:37 GMT", "Sun, 06 Nov +994 08:49:37 GMT",
            "Sun, 06 Nov 1994 08-49-37 GMT", "Sunday, 06-Nov-1994 08:49:37 GMT", "Sun, 06-Nov-94 08:49:37 GMT",
            "Sunday, 06 Nov 94 08:49:37 GMT", "Sun Nov 06 08:49:37 1994 ", "Sun Nov 6 08:49:37 1994", "Sun Nov   6 08:49:37 1994",
            "784111777", "Sun, ０６ Nov 1994 08:49:37 GMT",
        ]
        for text in refused {
            XCTAssertNil(HTTPDate.parse(text, now: now), text)
        }
    }

    func test_parse_takesLeapDays_ofLeapYearsOnly() {
        XCTAssertEqual(HTTPDate.parse("Tue, 29 Feb 2000 00:00:00 GMT", now: now), 951_782_400)
        XCTAssertEqual(HTTPDate.parse("Thu, 29 Feb 2024 00:00:00 GMT", now: now), 1_709_164_800)
        XCTAssertNil(HTTPDate.parse("Thu, 29 Feb 2100 00:00:00 GMT", now: now))
    }

    func test_anyBytes_parseWithoutTrapping_andWhatParsesFormatsBack() {
        let alphabet = Array("SunMoWedFriTh, 0123456789:-JanFebNovDecGMT ".utf8) + [0x00, 0xff]
        var generator = SplitMix64(seed: 9)
        let sample = Array("Sun, 06 Nov 1994 08:49:37 GMT".utf8)
        for _ in 0..<20_000 {
            // Mostly small changes to a real date, so that the strict checks each get exercised.
            var bytes = sample
            for _ in 0..<Int(generator.next() % 3 + 1) {
                let index = Int(generator.next() % UInt64(bytes.count))
                bytes[index] = alphabet[Int(generator.next() % UInt64(alphabet.count))]
            }
            let text = String(decoding: bytes, as: UTF8.self)
            if let seconds = HTTPDate.parse(text, now: now) {
                XCTAssertEqual(HTTPDate.parse(HTTPDate.format(seconds), now: now), seconds, text)
            }
        }
    }
}
