import Foundation
import BatonClient

/// A request to the authorization server: a form post to its token, device authorization or
/// revocation endpoint, or the read of its metadata. The response is read whatever its status,
/// since an error response carries the reason (RFC 6749 §5.2).
struct AuthorizationServerRequest: Endpoint {
    typealias Response = HTTPResponse

    var method: HTTPMethod
    var path: EndpointPath
    var headers: [String: String]
    var body: RequestBody = .none
    var acceptableStatusCodes: Range<Int> { 100..<600 }
    var acceptableContentTypes: [String] { ["*/*"] }

    func decode(_ response: HTTPResponse, with decoder: JSONDecoder) throws -> HTTPResponse {
        response
    }
}
