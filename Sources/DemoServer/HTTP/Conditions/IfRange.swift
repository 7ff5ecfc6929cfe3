/// An `If-Range` condition (RFC 9110 §13.1.5): "send me the range only if the representation is
/// still the one I have part of", named by a strong entity tag or by its `Last-Modified` date.
/// When it does not hold, the server ignores `Range` and sends the whole representation, so a
/// client resuming a download never splices bytes of two versions.
enum IfRange: Sendable, Equatable {
    case entityTag(EntityTag)
    /// Seconds since 1970.
    case date(Int64)

    /// The request's one `If-Range` field; nil when absent, repeated or malformed (then the
    /// range is not sent: a condition that cannot be read cannot vouch for the bytes).
    /// `now` places an RFC 850 two-digit year (see ``HTTPDate/parse(_:now:)``).
    static func parse(_ values: [String], now: Int64) -> IfRange? {
        guard values.count == 1 else { return nil }
        let value = values[0].trimmingOWS()
        if value.hasPrefix("\"") || value.hasPrefix("W/") { return EntityTag.parse(value).map(IfRange.entityTag) }
        return HTTPDate.parse(value, now: now).map(IfRange.date)
    }

    /// Whether the representation tagged `etag`, last modified at `lastModified`, is the one the
    /// condition names: a strong tag equal by strong comparison (a weak tag never is), or a date
    /// exactly equal to `Last-Modified`.
    func holds(etag: EntityTag, lastModified: Int64?) -> Bool {
        switch self {
        case .entityTag(let tag): tag.matchesStrongly(etag)
        case .date(let date): date == lastModified
        }
    }
}
