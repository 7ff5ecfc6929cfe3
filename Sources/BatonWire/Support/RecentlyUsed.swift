/// A bounded set of values by key, which forgets the one used least recently to make room.
///
/// What Baton keeps per host that a server can name (connection pools, the image loader's
/// clients per origin) lives in one of these, so that a server redirecting to ever new hosts
/// cannot make a client hold ever more. Not thread-safe: keep it under a lock.
package struct RecentlyUsed<Value> {
    /// The most values kept; at least 1.
    package let capacity: Int
    private var entries: [String: (value: Value, lastUse: UInt64)] = [:]
    private var clock: UInt64 = 0

    package init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Every value kept, in no order.
    package var values: [Value] { entries.values.map(\.value) }

    /// The value for `key`, made by `make` when there is none; and the value forgotten to make
    /// room for it, if one was, for the caller to close outside its lock.
    package mutating func use(_ key: String, orMake make: () -> Value) -> (value: Value, evicted: Value?) {
        clock += 1
        // One lookup for a value kept: this runs on every request.
        if let index = entries.index(forKey: key) {
            entries.values[index].lastUse = clock
            return (entries.values[index].value, nil)
        }
        var evicted: Value?
        if entries.count >= capacity, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
            evicted = entries.removeValue(forKey: oldest)?.value
        }
        let value = make()
        entries[key] = (value, clock)
        return (value, evicted)
    }
}
