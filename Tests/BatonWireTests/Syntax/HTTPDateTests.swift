@testable import BatonWire
import BatonSupport
import Dispatch
import Foundation
import XCTest

/// The one HTTP-date reader the client has (Retry-After, a download's Last-Modified and Date).
final class HTTPDateTests: XCTestCase {
    private let sunday = Date(timeIntervalSince1970: 784_111_777)

    func test_parse_readsEachOfTheThreeForms_andNothingElse() {
        XCTAssertEqual(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT"), sunday)
        XCTAssertEqual(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT"), sunday)
        XCTAssertEqual(HTTPDate.parse("Sun Nov  6 08:49:37 1994"), sunday)
        XCTAssertNil(HTTPDate.parse("next tuesday"))
        XCTAssertNil(HTTPDate.parse(""))
    }

    /// The formatters behind it are made once and shared: a thousand parses at once, from every
    /// core, each get their own date (DateFormatter used by two threads at once gives garbage or
    /// crashes).
    func test_parse_fromManyThreadsAtOnce_givesEachItsOwnDate() {
        let texts = (0..<1000).map { index -> (String, Date) in
            let second = index % 60
            let date = sunday.addingTimeInterval(Double(second - 37))
            switch index % 3 {
            case 0: return (String(format: "Sun, 06 Nov 1994 08:49:%02d GMT", second), date)
            case 1: return (String(format: "Sunday, 06-Nov-94 08:49:%02d GMT", second), date)
            default: return (String(format: "Sun Nov  6 08:49:%02d 1994", second), date)
            }
        }
        let wrong = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: texts.count) { index in
            let (text, expected) = texts[index]
            if HTTPDate.parse(text) != expected { wrong.withLock { $0.append(text) } }
        }
        XCTAssertEqual(wrong.withLock { $0 }, [])
    }
}
