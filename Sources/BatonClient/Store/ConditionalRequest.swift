/// The one statement of how a `GET` asks whether what the client holds is still current
/// (RFC 9110 §13.1): the validators of the response it came in, sent back in the fields that
/// compare with them. The client's store (``Revalidation``) and the image loader's disk both ask
/// this way.
package enum ConditionalRequest {
    /// The conditional fields, in the order they are set.
    package static let fieldNames = ["If-None-Match", "If-Modified-Since"]

    /// The fields that ask about the representation whose `ETag` was `etag` and whose
    /// `Last-Modified` was `lastModified`: `If-None-Match` with the entity tag and
    /// `If-Modified-Since` with the date, each only when there is one, and each exactly as the
    /// server sent it (the date is never parsed and written again: the server compares its own
    /// text best). Empty when there is neither.
    package static func fields(etag: String?, lastModified: String?) -> [(name: String, value: String)] {
        // Both, when there are both: a server that understands If-None-Match ignores the date
        // (RFC 9110 §13.1.3), one that does not still has the date to go by.
        var fields: [(name: String, value: String)] = []
        if let etag { fields.append((fieldNames[0], etag)) }
        if let lastModified { fields.append((fieldNames[1], lastModified)) }
        return fields
    }
}
