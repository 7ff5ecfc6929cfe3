/// The elements of the streamed routes on the wire: server-sent events (the HTML Living Standard,
/// "Server-sent events") and JSON lines, each element complete with its terminator.
///
/// Their JSON is compact, so a `data:` field or a line never holds a line break.
enum StreamElements {
    /// `retry: 1000` and the blank line: a block that sets the client's reconnection time and
    /// dispatches no event.
    static func retry(milliseconds: Int) -> [UInt8] {
        Array("retry: \(milliseconds)\n\n".utf8)
    }

    /// `event: <type>` (when given), `id: <id>`, `data: <data>` and the blank line that dispatches it.
    static func event(id: Int, type: String? = nil, data: [UInt8]) -> [UInt8] {
        var text = type.map { "event: \($0)\n" } ?? ""
        text += "id: \(id)\ndata: "
        return Array(text.utf8) + data + [newline, newline]
    }

    /// One JSON text and its `\n`.
    static func line(_ json: [UInt8]) -> [UInt8] {
        json + [newline]
    }

    /// An element of `/_demo/events` (`id: <index>` and `data: <object>`) or of `/_demo/lines`
    /// (the object and `\n`), the object `{"i":<index>,"pad":"xx…"}` exactly `size` bytes when that
    /// is at least the shortest such object, the shortest otherwise.
    ///
    /// Made in one buffer, without text in between: a benchmark streams millions of them.
    static func demoElement(index: Int, size: Int, event: Bool) -> [UInt8] {
        let digits = decimal(index)
        let shortest = 15 + digits.count  // {"i":,"pad":""}
        var element: [UInt8] = []
        element.reserveCapacity(max(size, shortest) + digits.count + 12)
        if event {
            element += "id: ".utf8
            element += digits
            element += "\ndata: ".utf8
        }
        element += "{\"i\":".utf8
        element += digits
        element += ",\"pad\":\"".utf8
        element.append(contentsOf: repeatElement(UInt8(ascii: "x"), count: max(0, size - shortest)))
        element += "\"}".utf8
        element += (event ? "\n\n" : "\n").utf8
        return element
    }

    /// The decimal digits of a non-negative `number`.
    private static func decimal(_ number: Int) -> [UInt8] {
        var digits: [UInt8] = []
        var rest = number
        repeat {
            digits.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        } while rest > 0
        return digits.reversed()
    }

    /// The states a photo goes through, with its progress in percent.
    static let photoStates: [(state: String, progress: Int)] = [("queued", 0), ("processing", 50), ("ready", 100)]

    /// Every event of `GET /reviews/:id/photos/states` for a review with these photos, ids from 1:
    /// `state` events (``photoStates`` for each photo in turn), then one `done` event. The same
    /// photos always give the same events, so an id names the same event on every request.
    static func photoStateEvents(photoIDs: [Int]) -> [[UInt8]] {
        var events: [[UInt8]] = []
        for photoID in photoIDs {
            for (state, progress) in photoStates {
                let data = JSONValue.object([("photo_id", .integer(photoID)), ("state", .string(state)), ("progress", .integer(progress))])
                events.append(event(id: events.count + 1, type: "state", data: data.serialized()))
            }
        }
        let done = JSONValue.object([("photos", .integer(photoIDs.count))])
        events.append(event(id: events.count + 1, type: "done", data: done.serialized()))
        return events
    }

    private static let newline = UInt8(ascii: "\n")
}
