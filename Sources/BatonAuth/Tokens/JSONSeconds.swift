import Foundation

/// A number of seconds in an authorization server's JSON answer (`expires_in`, `interval`).
enum JSONSeconds {
    /// `value` as seconds: a JSON number, or a string of digits as some servers send; `nil` when it
    /// is neither, or not finite.
    static func read(_ value: Any?) -> Double? {
        let seconds: Double?
        switch value {
        case let number as NSNumber: seconds = number.doubleValue
        case let text as String: seconds = Double(text)
        default: seconds = nil
        }
        return seconds.flatMap { $0.isFinite ? $0 : nil }
    }
}
