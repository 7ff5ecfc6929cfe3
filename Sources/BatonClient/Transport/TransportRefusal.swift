/// A request a transport will not send as it stands, refused before any byte goes: the exchange
/// stage turns it into an ``APIError`` of kind ``APIError/Kind/invalidRequest`` naming `field`.
///
/// Kept apart from `URLError`s, whose codes a transport's stack may reuse for other things:
/// URLSession answers a `GET` with a body with `dataLengthExceedsMaximum`, the code a response
/// over the size limit has.
struct TransportRefusal: Error, Sendable {
    /// The part of the request at fault, as in `body`.
    var field: String
    /// Why, and what to do instead.
    var reason: String
}
