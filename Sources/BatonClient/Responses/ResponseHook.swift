/// Sees each decoded response before its call's promise fulfils: to save it, index it, or check
/// it. Hooks are listed in ``Client/Configuration/responseHooks``.
///
/// A hook runs off the session's queue, after the response was validated and decoded, once per
/// successful call (never for a failed attempt). Throwing fails the call with the error thrown,
/// with no retry; the value is then not delivered.
///
/// ```swift
/// struct Audit: ResponseHook {
///     func decoded(_ value: any Sendable, response: HTTPResponse, request: RequestSummary) throws {
///         if response.headers["Deprecation"] != nil { log("\(request) is deprecated") }
///     }
/// }
/// ```
public protocol ResponseHook: Sendable {
    /// Called with the decoded value of a successful call, the response it came from, and the
    /// call's request.
    func decoded(_ value: any Sendable, response: HTTPResponse, request: RequestSummary) throws
}
