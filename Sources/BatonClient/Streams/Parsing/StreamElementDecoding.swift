import Foundation

/// Decodes one element of a stream as the endpoint's response type: a server-sent event as
/// itself (``ServerSentEvent``), its data as text (`String`), or its data as JSON; a JSON line
/// as JSON.
enum StreamElementDecoding {
    /// Why an element did not decode, for the stream's failure.
    struct Failure: Error {
        var codingPath: String
        var reason: String
    }

    /// What an event becomes, decided once per stream rather than tried per event.
    enum Kind: Sendable {
        case event, text, json

        init<Element>(of type: Element.Type) {
            self = type == ServerSentEvent.self ? .event : type == String.self ? .text : .json
        }
    }

    /// `event` as an `Element`: itself, its data, or its data decoded as JSON; `nil`, and
    /// `failure` set, when it does not decode.
    static func decode<Element: Decodable>(
        _ type: Element.Type, _ kind: Kind, event: ServerSentEvent, with decoder: JSONDecoder, failure: inout Failure?
    ) -> Element? {
        switch kind {
        // `Kind` found the types the same, so these are no conversions: a bit cast costs none
        // of a dynamic cast's look-ups, on every event of a stream.
        case .event: return unsafeBitCast(event, to: Element.self)
        case .text: return unsafeBitCast(event.data, to: Element.self)
        case .json: return decode(type, json: Data(event.data.utf8), with: decoder, failure: &failure)
        }
    }

    /// `json` decoded as an `Element`; `nil`, and `failure` set, when it does not decode.
    static func decode<Element: Decodable>(_ type: Element.Type, json: Data, with decoder: JSONDecoder, failure: inout Failure?) -> Element? {
        do {
            return try decoder.decode(type, from: json)
        } catch let error as DecodingError {
            let (path, reason) = ResponseDecoding.describe(error)
            failure = Failure(codingPath: path, reason: reason)
        } catch {
            failure = Failure(codingPath: "", reason: "\(error)")
        }
        return nil
    }
}
