/// Conditional requests (RFC 9110 §13) and range requests (§14), decided once for every resource
/// route: after routing, on the route's 200 response to a GET or HEAD, and before a fault changes the
/// response (so `drop-after` cuts a 206 as it cuts a 200).
///
/// In the order of §13.2.2: `If-None-Match` matching the current tag (weak comparison) is a
/// `304 Not Modified`; without `If-None-Match`, so is `If-Modified-Since` at or after
/// `Last-Modified`. Otherwise a GET's `Range` is served, unless `If-Range` names another version:
/// `206 Partial Content` with the slice, or `416 Range Not Satisfiable` when no byte of the
/// representation is in the range. Every header is read defensively; one that cannot be read
/// counts as no match (a malformed `If-None-Match` still hides `If-Modified-Since`, as its mere
/// presence does), and a `Range` or `If-Range` that cannot be read means the whole response.
enum ConditionalResponse {
    /// What a 304 keeps of the 200 it stands for: what a cache needs to update its copy.
    static let notModifiedFields: Set = ["etag", "last-modified", "cache-control"]

    /// The response to send for `response`, a resource's 200 response with its validators set:
    /// `response` itself, or the 304, 206 or 416 the request's conditions make of it. `now`
    /// (seconds since 1970) places two-digit years of obsolete dates.
    static func answer(_ response: ServerResponse, to head: HTTPRequestHead, now: Int64) -> ServerResponse {
        guard let etag = response.header("ETag").flatMap(EntityTag.parse) else { return response }
        let lastModified = response.header("Last-Modified").flatMap { HTTPDate.parse($0, now: now) }
        let fields = head.headers
        let noneMatch = fields.values("If-None-Match")
        if !noneMatch.isEmpty {
            if IfNoneMatch.parse(noneMatch)?.matches(etag) == true { return notModified(response) }
        } else if let lastModified, let since = modifiedSince(fields.values("If-Modified-Since"), now: now),
                  lastModified <= since {
            return notModified(response)
        }
        // Range is defined for GET only (§14.2): a HEAD gets the whole response's head.
        guard head.method == "GET", let range = ByteRange.parse(fields.values("Range")) else { return response }
        let ifRange = fields.values("If-Range")
        if !ifRange.isEmpty {
            guard let condition = IfRange.parse(ifRange, now: now), condition.holds(etag: etag, lastModified: lastModified)
            else { return response }
        }
        let length = response.body.count
        switch range.resolve(length: length) {
        case .whole:
            return response
        case .partial(let bytes):
            var partial = response
            partial.status = 206
            // A slice of the same storage: the range is sent without a copy.
            let start = response.body.startIndex
            partial.body = response.body[(start + bytes.lowerBound)...(start + bytes.upperBound)]
            partial.setHeader("Content-Range", "bytes \(bytes.lowerBound)-\(bytes.upperBound)/\(length)")
            return partial
        case .unsatisfiable:
            let validators = response.headers.filter { notModifiedFields.contains($0.name.lowercased()) }
            return .message(416, "the range selects no bytes: the representation has \(length) bytes",
                            headers: validators + [("Content-Range", "bytes */\(length)")])
        }
    }

    /// The `If-Modified-Since` date; nil when absent, repeated or not an HTTP-date (§13.1.3: then
    /// it is ignored).
    private static func modifiedSince(_ values: [String], now: Int64) -> Int64? {
        guard values.count == 1 else { return nil }
        return HTTPDate.parse(values[0], now: now)
    }

    /// The 304 for `response`: its validators and caching fields, no body and no length.
    private static func notModified(_ response: ServerResponse) -> ServerResponse {
        ServerResponse(status: 304, headers: response.headers.filter { notModifiedFields.contains($0.name.lowercased()) })
    }
}
