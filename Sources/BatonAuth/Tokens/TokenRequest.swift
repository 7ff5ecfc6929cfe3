import Foundation
import BatonClient

/// A request to the token endpoint (RFC 6749 §4.3 and §6): a form post whose response is read
/// whatever its status, since an error response carries the reason.
struct TokenRequest: Endpoint {
    typealias Response = HTTPResponse

    var path: EndpointPath
    var headers: [String: String]
    var body: RequestBody
    var method: HTTPMethod { .post }
    var acceptableStatusCodes: Range<Int> { 100..<600 }
    var acceptableContentTypes: [String] { ["*/*"] }

    func decode(_ response: HTTPResponse, with decoder: JSONDecoder) throws -> HTTPResponse {
        response
    }
}
