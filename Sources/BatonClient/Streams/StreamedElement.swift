import Foundation

/// One element cut from a streamed body, before it is decoded: a server-sent event, the
/// server's reconnection delay, or a JSON line with its number.
enum StreamedElement: Sendable {
    case event(ServerSentEvent)
    case retry(milliseconds: Int)
    case line(Data, number: Int)
}

/// How a streamed body is cut into elements.
enum StreamFormat: Sendable {
    /// `text/event-stream`, by the HTML standard's rules.
    case serverSentEvents
    /// JSON lines (`application/x-ndjson`, `application/jsonl`): a value per line.
    case jsonLines

    /// The media types a response in this format is accepted with.
    var mediaTypes: [String] {
        switch self {
        case .serverSentEvents: ["text/event-stream"]
        case .jsonLines: ["application/x-ndjson", "application/jsonl", "application/x-jsonlines", "application/json-lines"]
        }
    }

    /// What one element is called in sentences.
    var elementName: String {
        switch self {
        case .serverSentEvents: "an event"
        case .jsonLines: "a line"
        }
    }
}

/// A parser for one of the formats, fed a body's pieces in order.
struct ElementCutter {
    private var events: ServerSentEventParser?
    private var lines: JSONLinesParser?

    init(_ format: StreamFormat, maximumElementSize: Int, lastEventID: String) {
        switch format {
        case .serverSentEvents:
            var parser = ServerSentEventParser(maximumEventSize: maximumElementSize)
            parser.lastEventID = lastEventID
            events = parser
        case .jsonLines:
            lines = JSONLinesParser(maximumLineSize: maximumElementSize)
        }
    }

    /// The last event ID seen (server-sent events), to send as `Last-Event-ID` on reconnecting.
    var lastEventID: String { events?.lastEventID ?? "" }

    mutating func feed(_ bytes: UnsafeRawBufferPointer, _ emit: (StreamedElement) -> Void) throws {
        if events != nil {
            try events!.feed(bytes) { output in emit(Self.element(output)) }
        } else {
            try lines!.feed(bytes) { line, number in emit(.line(line, number: number)) }
        }
    }

    /// Whether the body is in the middle of an element: an event not dispatched, a line not ended.
    var isInsideElement: Bool { events?.isInsideEvent ?? lines?.isInsideLine ?? false }

    mutating func finish(_ emit: (StreamedElement) -> Void) throws {
        if events != nil {
            try events!.finish { output in emit(Self.element(output)) }
        } else {
            try lines!.finish { line, number in emit(.line(line, number: number)) }
        }
    }

    private static func element(_ output: ServerSentEventParser.Output) -> StreamedElement {
        switch output {
        case .event(let event): .event(event)
        case .retry(let milliseconds): .retry(milliseconds: milliseconds)
        }
    }
}
