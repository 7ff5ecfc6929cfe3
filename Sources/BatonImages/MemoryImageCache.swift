import BatonSupport

/// Images kept in memory up to a number of bytes, the least recently used dropped first.
final class MemoryImageCache: Sendable {
    private struct State {
        var entries: [String: (image: LoadedImage, lastUse: UInt64)] = [:]
        var bytes = 0
        var clock: UInt64 = 0
    }

    let limit: Int
    private let state = Locked(State())

    init(limit: Int) {
        self.limit = limit
    }

    func image(for key: String) -> LoadedImage? {
        state.withLock { state in
            guard let entry = state.entries[key] else { return nil }
            state.clock += 1
            state.entries[key]?.lastUse = state.clock
            return entry.image
        }
    }

    /// Keeps `image` unless it alone is over the limit, dropping the least recently used images
    /// until everything fits.
    func insert(_ image: LoadedImage, for key: String) {
        let size = image.data.count
        guard size <= limit else { return }
        state.withLock { state in
            if let old = state.entries[key] { state.bytes -= old.image.data.count }
            state.clock += 1
            state.entries[key] = (image, state.clock)
            state.bytes += size
            while state.bytes > limit, let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                state.entries[oldest.key] = nil
                state.bytes -= oldest.value.image.data.count
            }
        }
    }

    func removeAll() {
        state.withLock { $0 = State() }
    }

    var byteCount: Int { state.withLock { $0.bytes } }
}
