import Foundation

extension HTTPResponse {
    /// A response with a JSON body and `Content-Type: application/json; charset=utf-8`, unless
    /// `headers` names a content type of its own (in any case).
    public static func json(_ body: String, statusCode: Int = 200, headers: [String: String] = [:]) -> HTTPResponse {
        var response = HTTPResponse(statusCode: statusCode, headers: headers, body: Data(body.utf8))
        if response.value(forHeader: "Content-Type") == nil {
            response.headers["Content-Type"] = "application/json; charset=utf-8"
        }
        return response
    }
}
