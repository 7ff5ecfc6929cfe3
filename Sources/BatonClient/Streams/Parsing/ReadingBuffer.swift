/// The elements a stream's reader took off its ``BodyStream`` in one go, and how far it has
/// handed them on.
// Not locked: only the stream's one reader touches it, the drain that holds `isDraining` or
// the iterator's one pending `next`, and each hands over to the next through the stream call's lock.
final class ReadingBuffer: @unchecked Sendable {
    var batch = Batch()

    struct Batch {
        private var elements: [StreamedElement] = []
        private var index = 0
        /// Events seen so far, for a decoding failure's sentence.
        private var eventNumber = 0
        /// The ID of the last event taken, `""` before any: where a stream stopped by its handler
        /// ended, which events read ahead but never handed on must not move.
        private(set) var lastEventIDTaken = ""

        /// Whether elements taken remain to be handed on.
        var hasMore: Bool { index < elements.count }

        /// The next element, with its event number, taking what waits on `stream` when this
        /// batch is done; `nil` when nothing waits.
        mutating func next(refillingFrom stream: BodyStream) -> (StreamedElement, Int)? {
            if index == elements.count {
                elements = stream.takeAll()
                index = 0
                if elements.isEmpty { return nil }
            }
            let element = elements[index]
            index += 1
            if case .event(let event) = element {
                eventNumber += 1
                lastEventIDTaken = event.id
            }
            return (element, eventNumber)
        }
    }
}
