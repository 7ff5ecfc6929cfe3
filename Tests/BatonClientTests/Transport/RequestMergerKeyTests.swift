@testable import BatonClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// `RequestMerger.key(of:body:options:)`: what makes two requests the same one, and which
/// requests are never merged.
final class RequestMergerKeyTests: XCTestCase {

    private func request(_ method: String? = nil, _ url: String = "http://h/orders/1", headers: [String: String] = [:]) -> URLRequest {
        var request = URLRequest(url: URL(string: url)!)
        if let method { request.httpMethod = method }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return request
    }

    private func key(_ request: URLRequest, body: TransportBody? = nil, options: TransferOptions = TransferOptions()) -> String? {
        RequestMerger.key(of: request, body: body, options: options)
    }

    // MARK: Merged

    func test_GETAndHEAD_haveKeys_thatDiffer() throws {
        let get = try XCTUnwrap(key(request()))
        let head = try XCTUnwrap(key(request("HEAD")))
        XCTAssertNotEqual(get, head)
        XCTAssertEqual(key(request("GET")), get, "GET is the default method")
    }

    func test_theSameRequest_hasTheSameKey_whateverTheOrderOrCaseOfItsFieldNames() {
        let one = key(request(headers: ["Accept": "application/json", "Authorization": "Bearer a", "X-Trace": "1"]))
        let other = key(request(headers: ["x-trace": "1", "AUTHORIZATION": "Bearer a", "accept": "application/json"]))
        XCTAssertNotNil(one)
        XCTAssertEqual(one, other)
    }

    func test_aDifferentFieldValue_orAnExtraField_givesADifferentKey() {
        let alice = key(request(headers: ["Authorization": "Bearer alice"]))
        let bob = key(request(headers: ["Authorization": "Bearer bob"]))
        let none = key(request())
        let extra = key(request(headers: ["Authorization": "Bearer alice", "If-None-Match": "\"v1\""]))
        XCTAssertEqual(Set([alice, bob, none, extra].compactMap { $0 }).count, 4)
    }

    func test_fieldValuesAreCompared_withTheirCase() {
        XCTAssertNotEqual(key(request(headers: ["Authorization": "Bearer abc"])), key(request(headers: ["Authorization": "Bearer ABC"])))
    }

    func test_aDifferentURL_givesADifferentKey() {
        let urls = ["http://h/orders/1", "http://h/orders/2", "http://h/orders/1?v=2", "https://h/orders/1", "http://other/orders/1"]
        let keys = urls.compactMap { key(request(nil, $0)) }
        XCTAssertEqual(Set(keys).count, urls.count)
    }

    func test_aDifferentSizeLimit_givesADifferentKey_otherOptionsDoNot() {
        let small = key(request(), options: TransferOptions(maximumResponseSize: 1024))
        let large = key(request(), options: TransferOptions(maximumResponseSize: 2048))
        XCTAssertNotNil(small)
        XCTAssertNotEqual(small, large)
        XCTAssertEqual(key(request(), options: TransferOptions(tracksDownloadProgress: true)), key(request()))
    }

    // MARK: Never merged

    func test_methodsOtherThanGETAndHEAD_haveNoKey() {
        for method in ["POST", "PUT", "PATCH", "DELETE", "OPTIONS"] {
            XCTAssertNil(key(request(method)), method)
        }
    }

    func test_aRequestWithABody_hasNoKey() {
        XCTAssertNil(key(request(), body: .data(Data("x".utf8))))
        var withHTTPBody = request()
        withHTTPBody.httpBody = Data("x".utf8)
        XCTAssertNil(key(withHTTPBody))
    }

    func test_downloadsAndStreams_haveNoKey() {
        let download = ResumableDownload(file: FileManager.default.temporaryDirectory.appending(path: "never-written"), record: nil) { _ in }
        XCTAssertNil(key(request(), options: TransferOptions(destination: .file(download))))
        var streaming = TransferOptions()
        streaming.destination = .stream(BodyStream(format: .jsonLines, maximumElementSize: 1024))
        XCTAssertNil(key(request(), options: streaming))
    }

    func test_aRequestWithoutAURL_hasNoKey() {
        var request = request()
        request.url = nil
        XCTAssertNil(key(request))
    }
}
