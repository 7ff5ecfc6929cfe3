/// A response read off a connection, and whether that connection can carry another request after
/// it. ``ResponseReader`` says so from the response alone; ``WireConnection`` then also counts the
/// request it wrote (one whose body the server did not wait for leaves the connection unusable).
struct ConnectionResult {
    var response: HTTPResponse
    /// `false` once anything about the exchange leaves the connection unfit for another request.
    var keepsConnection: Bool
}
