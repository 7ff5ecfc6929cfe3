import BatonPromise

/// `completed` units done out of `total` (`nil`: unknown), as tests write expected progress.
package func progress(_ completed: Int64, of total: Int64? = nil) -> PromiseProgress {
    PromiseProgress(completed: completed, total: total)
}
