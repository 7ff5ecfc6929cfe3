import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import BatonWire

/// One connection of a stream, as its call asks it: the transport hands an accepted body to the
/// ``BodyStream`` as it arrives; the request asks for the stream's media types (unless the
/// endpoint names its own `Accept`) and, when reconnecting, sends `Last-Event-ID`; the call's
/// value is the end of the body.
enum StreamConnection {
    /// The destination of a connection to `stream`, resuming after `lastEventID` (`""` for
    /// none). `acceptedBefore` counts the responses the stream had accepted before this
    /// connection: one more once this one's is.
    static func destination(
        for stream: BodyStream, lastEventID: String, acceptedBefore: Int, endpointNamesAccept: Bool
    ) -> CallDestination<Void> {
        var fields: [String: String] = [:]
        if !endpointNamesAccept { fields["Accept"] = stream.format.mediaTypes.joined(separator: ", ") }
        if !lastEventID.isEmpty { fields["Last-Event-ID"] = lastEventID }
        // No report per piece: a stream's progress is its elements.
        return CallDestination(
            body: .stream(stream), fields: fields, acceptableContentTypes: stream.format.mediaTypes, tracksDownloadProgress: false
        ) { response in
            try end(of: response, in: stream, acceptedBefore: acceptedBefore)
        }
    }

    /// The body ended: cut its last element, if one is pending (unless the body ended at the
    /// connection's close inside it: then the stream was cut, see
    /// ``BodyStream/endOfBody(endsAtClose:)``). A transport that does not stream bodies (one of a
    /// user's, ``StubTransport``) hands the whole body here instead: it is cut now, its elements
    /// all at once rather than as they came.
    private static func end(of response: HTTPResponse, in stream: BodyStream, acceptedBefore: Int) throws {
        if stream.acceptedResponses == acceptedBefore, !response.body.isEmpty,
           stream.accepts(status: response.statusCode, headers: response.headers) {
            // Handed over whole by the transport, which vouches for it.
            _ = response.body.withUnsafeBytes { stream.receive($0, canWait: false) }
            return try stream.endOfBody(endsAtClose: false)
        }
        // Streamed without a length or chunking: the body's end was the connection's close.
        let framed = response.headers.keys.contains {
            WireText.equalIgnoringCase($0, "Content-Length") || WireText.equalIgnoringCase($0, "Transfer-Encoding")
        }
        try stream.endOfBody(endsAtClose: !framed)
    }
}
