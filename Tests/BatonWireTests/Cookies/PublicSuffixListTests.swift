@testable import BatonWire
import XCTest

/// The Public Suffix List compiled into Baton and its algorithm: exact rules, wildcards and their
/// exceptions, the implicit `*` rule, private suffixes, Unicode rules in both spellings, case,
/// and the names that are no domain names.
final class PublicSuffixListTests: XCTestCase {
    private let list = PublicSuffixList.shared

    private func assertRegistrable(_ cases: [(String, String?)], file: StaticString = #filePath, line: UInt = #line) {
        for (name, expected) in cases {
            XCTAssertEqual(list.registrableDomain(name), expected, name, file: file, line: line)
            XCTAssertEqual(list.isPublicSuffix(name), expected == nil, name, file: file, line: line)
        }
    }

    func test_privateSuffixes_arePublic_andEachTenantIsASiteOfItsOwn() {
        assertRegistrable([
            ("github.io", nil), ("alice.github.io", "alice.github.io"), ("www.alice.github.io", "alice.github.io"),
            ("herokuapp.com", nil), ("app.herokuapp.com", "app.herokuapp.com"),
            ("pages.dev", nil), ("project.pages.dev", "project.pages.dev"), ("a.b.project.pages.dev", "project.pages.dev"),
        ])
    }

    func test_icannSuffixes_ofOneTwoAndThreeLabels() {
        assertRegistrable([
            ("com", nil), ("example.com", "example.com"), ("a.b.example.com", "example.com"),
            ("uk", nil), ("co.uk", nil), ("example.co.uk", "example.co.uk"), ("www.example.co.uk", "example.co.uk"),
            ("ide.kyoto.jp", nil), ("b.ide.kyoto.jp", "b.ide.kyoto.jp"), ("a.b.ide.kyoto.jp", "b.ide.kyoto.jp"),
            ("k12.ak.us", nil), ("www.test.k12.ak.us", "test.k12.ak.us"),
        ])
    }

    func test_aRuleUnderANameThatIsNoRule_stillMatches() {
        // `nes.akershus.no` with no rule `akershus.no`; `execute-api.af-south-1.amazonaws.com`
        // with none for `af-south-1.amazonaws.com` nor `amazonaws.com`.
        assertRegistrable([
            ("akershus.no", "akershus.no"), ("nes.akershus.no", nil), ("x.nes.akershus.no", "x.nes.akershus.no"),
            ("af-south-1.amazonaws.com", "amazonaws.com"), ("execute-api.af-south-1.amazonaws.com", nil),
            ("a.b.execute-api.af-south-1.amazonaws.com", "b.execute-api.af-south-1.amazonaws.com"),
        ])
    }

    func test_aWildcardRule_makesEveryNameUnderItPublic_exceptItsExceptions() {
        // `*.ck` and `!www.ck`; `*.kobe.jp` and `!city.kobe.jp`.
        assertRegistrable([
            ("ck", nil), ("test.ck", nil), ("b.test.ck", "b.test.ck"), ("a.b.test.ck", "b.test.ck"),
            ("www.ck", "www.ck"), ("www.www.ck", "www.ck"),
            ("c.kobe.jp", nil), ("b.c.kobe.jp", "b.c.kobe.jp"), ("city.kobe.jp", "city.kobe.jp"), ("www.city.kobe.jp", "city.kobe.jp"),
        ])
    }

    func test_aNameUnderNoRule_fallsOnTheImplicitRule_itsLastLabel() {
        assertRegistrable([
            ("example", nil), ("localhost", nil), ("example.example", "example.example"), ("a.b.example.example", "example.example"),
        ])
    }

    func test_unicodeRules_matchInTheirOwnSpelling_andInPunycode() {
        assertRegistrable([
            ("公司.cn", nil), ("食狮.公司.cn", "食狮.公司.cn"), ("www.食狮.公司.cn", "食狮.公司.cn"), ("中国", nil), ("食狮.中国", "食狮.中国"),
            ("xn--55qx5d.cn", nil), ("www.xn--85x722f.xn--55qx5d.cn", "xn--85x722f.xn--55qx5d.cn"),
            ("xn--fiqs8s", nil), ("shishi.xn--fiqs8s", "shishi.xn--fiqs8s"),
        ])
    }

    func test_lettersAreComparedWithoutCase_andTheAnswerIsLowercased() {
        assertRegistrable([("COM", nil), ("WwW.Example.CO.UK", "example.co.uk"), ("Alice.GitHub.IO", "alice.github.io"), ("GITHUB.IO", nil)])
    }

    func test_aTrailingDot_isSetAsideForTheMatch_andKept() {
        assertRegistrable([("com.", nil), ("github.io.", nil), ("www.example.com.", "example.com."), ("alice.github.io.", "alice.github.io.")])
    }

    func test_aNameWithAnEmptyLabel_hasNoRegistrableDomain() {
        assertRegistrable([("", nil), (".", nil), (".com", nil), (".example.com", nil), ("a..example.com", nil), ("example.com..", nil)])
    }

    func test_theCompiledList_holdsBothSections() {
        XCTAssertFalse(PublicSuffixRules.version.isEmpty)
        // ICANN (`com`, `co.uk`) and private (`github.io`) rules, wildcards and exceptions.
        let lines = Set(PublicSuffixRules.text.split(separator: "\n"))
        for rule in ["com", "co.uk", "github.io", "herokuapp.com", "pages.dev", "*.ck", "!www.ck", "公司.cn", "xn--55qx5d.cn"] {
            XCTAssertTrue(lines.contains(Substring(rule)), rule)
        }
        XCTAssertGreaterThan(lines.count, 9000)
    }
}
