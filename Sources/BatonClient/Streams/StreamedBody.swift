import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import BatonWire

/// One connection of a stream: the endpoint, asking the transport to hand its accepted body to
/// `stream`, and to send `Last-Event-ID` when reconnecting. Everything but the response is the
/// wrapped endpoint's; its response is the end of the body.
struct StreamedBody<Base: Endpoint>: Endpoint, StreamsBody {
    typealias Response = Void

    let base: Base
    let bodyStream: BodyStream
    /// The last event ID to resume after, `""` for none.
    let lastEventID: String
    /// Answers the stream had accepted before this connection: one more once this one's is.
    let acceptedBefore: Int

    var method: HTTPMethod { base.method }
    var path: EndpointPath { base.path }
    var query: [URLQueryItem] { base.query }
    var headers: [String: String] {
        var headers = base.headers
        headers["Accept"] = headers["Accept"] ?? bodyStream.format.mediaTypes.joined(separator: ", ")
        if !lastEventID.isEmpty { headers["Last-Event-ID"] = lastEventID }
        return headers
    }
    var body: RequestBody { base.body }
    var idempotencyKey: String? { base.idempotencyKey }
    var acceptableStatusCodes: Range<Int> { base.acceptableStatusCodes }
    var acceptableContentTypes: [String] { bodyStream.format.mediaTypes }
    /// No report per piece: a stream's progress is its elements.
    var tracksDownloadProgress: Bool { false }

    /// The body ended: cut its last element, if one is pending (unless the body ended at the
    /// connection's close inside it: then the stream was cut, see ``BodyStream/endOfBody(endsAtClose:)``). A transport that does not
    /// stream bodies (one of a user's, ``StubTransport``) hands the whole body here instead: it
    /// is cut now, its elements all at once rather than as they came.
    func decode(_ response: HTTPResponse, with decoder: JSONDecoder) throws {
        if bodyStream.acceptedAnswers == acceptedBefore, !response.body.isEmpty,
           bodyStream.accepts(status: response.statusCode, headers: response.headers) {
            // Handed over whole by the transport, which vouches for it.
            _ = response.body.withUnsafeBytes { bodyStream.receive($0, canWait: false) }
            return try bodyStream.endOfBody(endsAtClose: false)
        }
        // Streamed without a length or chunking: the body's end was the connection's close.
        let framed = response.headers.keys.contains {
            WireText.equalIgnoringCase($0, "Content-Length") || WireText.equalIgnoringCase($0, "Transfer-Encoding")
        }
        try bodyStream.endOfBody(endsAtClose: !framed)
    }
}

/// Marks the endpoints whose accepted bodies go to a ``BodyStream``.
protocol StreamsBody {
    var bodyStream: BodyStream { get }
}
