/// Receives a promise's events.
@usableFromInline
package typealias PromiseHandler = @Sendable (PromiseEvent) -> Void

/// The handlers of one promise, in the order they were added.
///
/// Most promises have exactly one handler (the next step of a chain), so a single handler is kept
/// without allocating an array.
@usableFromInline
package struct HandlerList: Sendable {
    @usableFromInline
    package enum Storage: Sendable {
        case none
        case one(PromiseHandler)
        case many([PromiseHandler])
    }

    @usableFromInline package var storage = Storage.none
    /// Whether a handler here takes progress: one added by ``append(_:takesProgress:)`` with
    /// `false` (an internal observer of the settlement) does not, so progress held for the first
    /// handlers waits for one that does.
    @usableFromInline package var takesProgress = false

    @inlinable package init() {}

    @inlinable
    package var isEmpty: Bool {
        if case .none = storage { return true }
        return false
    }

    @inlinable
    package mutating func append(_ handler: @escaping PromiseHandler, takesProgress: Bool = true) {
        if takesProgress { self.takesProgress = true }
        switch storage {
        case .none:
            storage = .one(handler)
        case .one(let first):
            storage = .many([first, handler])
        case .many(var handlers):
            storage = .none  // drop this reference so the append below does not copy the array
            handlers.append(handler)
            storage = .many(handlers)
        }
    }

    @inlinable
    package func forEach(_ body: (PromiseHandler) -> Void) {
        switch storage {
        case .none: break
        case .one(let handler): body(handler)
        case .many(let handlers): handlers.forEach(body)
        }
    }
}
