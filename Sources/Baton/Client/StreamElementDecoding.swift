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

    static func decode<Element: Decodable>(_ type: Element.Type, _ kind: Kind, event: ServerSentEvent, with decoder: JSONDecoder) -> Result<Element, Failure> {
        switch kind {
        // The types are the same (see `Kind`): the casts cannot fail.
        case .event: .success(event as! Element)
        case .text: .success(event.data as! Element)
        case .json: decode(type, json: Data(event.data.utf8), with: decoder)
        }
    }

    static func decode<Element: Decodable>(_ type: Element.Type, line: Data, with decoder: JSONDecoder) -> Result<Element, Failure> {
        decode(type, json: line, with: decoder)
    }

    private static func decode<Element: Decodable>(_ type: Element.Type, json: Data, with decoder: JSONDecoder) -> Result<Element, Failure> {
        do {
            return .success(try decoder.decode(type, from: json))
        } catch let error as DecodingError {
            let (path, reason) = ResponseDecoding.describe(error)
            return .failure(Failure(codingPath: path, reason: reason))
        } catch {
            return .failure(Failure(codingPath: "", reason: "\(error)"))
        }
    }
}
