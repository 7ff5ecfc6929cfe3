import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import BatonPromise

/// A value that is either ready now or a promise of it: what the library's own adapters and
/// retriers give when they can answer without a Swift task.
package enum Prompt<Value: Sendable>: Sendable {
    case now(Result<Value, any Error>)
    case later(Promise<Value>)

    /// Hands the value to `body`: at once when it is ready; otherwise once it is, with `call`
    /// waiting for it meanwhile, so that cancelling, pausing or resuming the call reaches it.
    package func whenReady<Output>(for call: Promise<Output>, _ body: @escaping @Sendable (Result<Value, any Error>) -> Void) {
        switch self {
        case .now(let result):
            body(result)
        case .later(let promise):
            call.wait(for: promise)
            promise.subscribe { event in
                if case .settled(let settled) = event { body(Promise<Value>.result(of: settled)) }
            }
        }
    }

    /// The value, waiting for it if it is not ready.
    package var value: Value {
        get async throws {
            switch self {
            case .now(let result): return try result.get()
            case .later(let promise): return try await promise.value
            }
        }
    }
}

/// An adapter of the library's own that usually answers at once: the client calls it without
/// starting a Swift task, which under load is what keeps the reply prompt (a task waits its turn
/// behind every other task of the process).
package protocol PromptAdapter: RequestAdapter {
    func adaptPromptly(_ request: URLRequest, context: AttemptContext) -> Prompt<URLRequest>
}

/// A retrier of the library's own that usually answers at once; see ``PromptAdapter``.
package protocol PromptRetrier: RequestRetrier {
    func retryPromptly(_ request: URLRequest, failedWith error: any Error, context: AttemptContext) -> Prompt<RetryDecision>
}

/// Runs a client's adapters and retriers, in order, without a Swift task for as long as each
/// answers promptly.
enum Interception {
    /// `request` as the adapters leave it. An adapter's error ends the run.
    static func adapt(_ request: URLRequest, by adapters: ArraySlice<any RequestAdapter>, context: AttemptContext) -> Prompt<URLRequest> {
        var request = request
        for (offset, adapter) in zip(adapters.indices, adapters) {
            guard let prompt = adapter as? any PromptAdapter else {
                // The rest run in one task, each awaited in turn.
                let rest = adapters[offset...]
                let adapting = request
                return .later(Promise {
                    var adapted = adapting
                    for adapter in rest { adapted = try await adapter.adapt(adapted, context: context) }
                    return adapted
                })
            }
            switch prompt.adaptPromptly(request, context: context) {
            case .now(.success(let adapted)):
                request = adapted
            case .now(.failure(let error)):
                return .now(.failure(error))
            case .later(let adapted):
                let rest = adapters[(offset + 1)...]
                return .later(adapted.then { result -> Promise<URLRequest> in
                    switch adapt(try result.get(), by: rest, context: context) {
                    case .now(let result): return Promise(result)
                    case .later(let promise): return promise
                    }
                })
            }
        }
        return .now(.success(request))
    }

    /// The first decision of `retriers` that decides (see ``RetryDecision/decides``), or
    /// ``RetryDecision/doNotRetry``.
    static func decide(
        _ request: URLRequest, failedWith error: any Error, by retriers: ArraySlice<any RequestRetrier>, context: AttemptContext
    ) -> Prompt<RetryDecision> {
        for (offset, retrier) in zip(retriers.indices, retriers) {
            guard let prompt = retrier as? any PromptRetrier else {
                let rest = retriers[offset...]
                return .later(Promise {
                    for retrier in rest {
                        let decision = await retrier.retry(request, failedWith: error, context: context)
                        if decision.decides { return decision }
                    }
                    return .doNotRetry
                })
            }
            switch prompt.retryPromptly(request, failedWith: error, context: context) {
            case .now(.success(let decision)) where decision.decides:
                return .now(.success(decision))
            case .now:
                continue
            case .later(let decision):
                let rest = retriers[(offset + 1)...]
                return .later(decision.then { result -> Promise<RetryDecision> in
                    if case .success(let decision) = result, decision.decides { return Promise(value: decision) }
                    switch decide(request, failedWith: error, by: rest, context: context) {
                    case .now(let result): return Promise(result)
                    case .later(let promise): return promise
                    }
                })
            }
        }
        return .now(.success(.doNotRetry))
    }
}

extension Promise {
    /// A promise already settled with `result`.
    convenience init(_ result: Result<Value, any Error>) {
        switch result {
        case .success(let value): self.init(value: value)
        case .failure(let error): self.init(error: error)
        }
    }
}
