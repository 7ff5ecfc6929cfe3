import Foundation
import BatonClient
import BatonWire

/// Reads a token endpoint's response.
enum TokenResponseReading {
    /// Why a response is not a usable token.
    struct Unusable: Error {
        var reason: String
    }

    /// The credentials a successful response carries. The refresh token is `previousRefreshToken`
    /// when the response has none (RFC 6749 §6: the client keeps its refresh token).
    static func credentials(
        from response: HTTPResponse, fields: TokenResponseFields, previousRefreshToken: String?, now: Date
    ) throws(Unusable) -> Credentials {
        guard (200..<300).contains(response.statusCode) else {
            throw Unusable(reason: "status \(response.statusCode)")
        }
        guard let object = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any] else {
            throw Unusable(reason: "the token endpoint's answer is not a JSON object")
        }
        guard let access = object[fields.accessToken] as? String, !access.isEmpty else {
            throw Unusable(reason: "the token endpoint's answer has no \"\(fields.accessToken)\" string; \(Self.fieldNames(of: object))"
                + " (set the authenticator's configuration.fields, a TokenResponseFields, to read other names)")
        }
        try checkHeaderSafe(access)
        if let type = object[fields.tokenType] as? String, type.lowercased() != "bearer" {
            throw Unusable(reason: "the token endpoint issued a \"\(type.prefix(40))\" token, and only Bearer tokens are supported")
        }
        let refresh = (object[fields.refreshToken] as? String).flatMap { $0.isEmpty ? nil : $0 } ?? previousRefreshToken
        return Credentials(accessToken: access, refreshToken: refresh, expiresAt: lifetime(object[fields.expiresIn]).map { now + $0 })
    }

    /// Refuses an access token that is empty or is not visible ASCII (RFC 6750's b64token is): it
    /// could not be sent in a header, and a line break in it would forge header lines.
    static func checkHeaderSafe(_ access: String) throws(Unusable) {
        guard !access.isEmpty else { throw Unusable(reason: "the access token is empty") }
        guard access.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw Unusable(reason: "the access token holds characters a header cannot carry")
        }
    }

    /// The names of `object`'s fields, never their values, as in `its fields are "token" and
    /// "expires_in"`: at most ten, each cut at 40 characters, in alphabetical order.
    static func fieldNames(of object: [String: Any]) -> String {
        guard !object.isEmpty else { return "it has no fields" }
        let names = object.keys.sorted().prefix(10).map { "\"\(MessageText.escaped(String($0.prefix(40))))\"" }
        let more = object.count > names.count ? " and \(object.count - names.count) more" : ""
        guard names.count > 1 else { return "its only field is \(names[0])" }
        return "its fields are \(names.dropLast().joined(separator: ", "))\(more.isEmpty ? " and \(names.last!)" : ", \(names.last!)\(more)")"
    }

    /// `expires_in` as seconds: a number, or a string of digits as some servers send; at most ten
    /// years, so that no response can overflow a date.
    private static func lifetime(_ value: Any?) -> TimeInterval? {
        guard let seconds = JSONSeconds.read(value), seconds >= 0 else { return nil }
        return min(seconds, 10 * 365 * 86_400)
    }

    /// The error code of an error response: RFC 6749 §5.2's `error`, or a `message`.
    static func errorCode(in response: HTTPResponse) -> String? {
        response.serverError.code
    }

    /// The string `field` of a JSON object `body`, if it is one.
    static func string(_ field: String, in body: Data) -> String? {
        guard !body.isEmpty, let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else { return nil }
        return object[field] as? String
    }
}
