import Dispatch
import Foundation

/// The process stage of a call: a response that came back is validated against its endpoint
/// (status, then content type), decoded, then handed to the response hooks, saving decoded
/// entities to the client's store being one of them.
///
/// Validation and decoding fail the attempt, which the retriers may then retry (a `503`, say);
/// a hook that fails fails the call itself, since the response was good. A downloaded body's
/// temporary file is gone once decoding is over, moved into place or removed.
struct ResponseProcessing<E: Endpoint>: Sendable {
    let endpoint: E
    let context: CallContext

    /// The value `response` holds for the endpoint, or the ``APIError`` saying why it holds none.
    /// A `304` to a conditional request answers with the stored value it revalidated
    /// (`revalidating`), not validated or decoded.
    func decode(_ response: HTTPResponse, summary: RequestSummary, revalidating: (any Sendable)? = nil) throws -> E.Response {
        if response.isRevalidation, let stored = revalidating as? E.Response { return stored }
        // A download's file is moved into place by decoding; whatever else happens, it goes.
        defer { if let file = response.bodyFile { try? FileManager.default.removeItem(at: file) } }
        try Validation.validate(response, for: endpoint, request: summary)
        return try ResponseDecoding.decode(response, for: endpoint, request: summary, decoder: context.decoder)
    }

    /// The value `destination` makes of `response` (a download's file, a stream's end), once
    /// the response is validated against the endpoint's status codes and the destination's
    /// content types.
    func make<Output>(_ response: HTTPResponse, summary: RequestSummary, destination: CallDestination<Output>) throws -> Output {
        defer { if let file = response.bodyFile { try? FileManager.default.removeItem(at: file) } }
        try Validation.validate(response, for: endpoint, contentTypes: destination.acceptableContentTypes, request: summary)
        return try ResponseDecoding.making(Output.self, of: response, request: summary) { try destination.make(response) }
    }

    /// Runs the response hooks on `value`, then `completion`: at once when no hook wants it, else
    /// off the caller's queue (the session's, which every response of the client waits for), since
    /// saving writes files.
    func keep<Value: Sendable>(
        _ value: Value, from response: HTTPResponse, summary: RequestSummary, revalidation: RevalidationContext? = nil,
        completion: @escaping @Sendable (Result<Void, any Error>) -> Void
    ) {
        // A revalidated value is the stored one, untouched: only the hooks see it.
        let saves = !response.isRevalidation
        guard let keeper = context.keeper, keeper.keeps(value, saving: saves) else { return completion(.success(())) }
        DispatchQueue.global().async { [context] in
            completion(Result { try keeper.keep(value, from: response, for: summary, context: context, saving: saves, revalidation: revalidation) })
        }
    }
}
