import Baton
import BatonSupport
import Foundation

/// `baton-bench store`: 10,000 small entities saved one by one to a `FileEntityStore`, then read
/// back one by one by id, beside what an app would write by hand: each entity encoded with
/// `JSONEncoder` and written with `Data.write(options: .atomic)`, read with `Data(contentsOf:)`
/// and decoded. Rates are entities per second, so above 1 is faster; each side's figure is the
/// best of 3 rounds, in a fresh folder each.
enum StoreSuite {
    struct Item: StoredEntity {
        var id: Int
        var name: String
        var price: Int
        var note: String
    }

    static func run(quick: Bool) throws -> [BenchResult] {
        let count = quick ? 1_000 : 10_000
        let items = (0..<count).map { Item(id: $0, name: "山田太郎 \($0)", price: $0 * 100, note: "置き配希望") }
        let root = FileManager.default.temporaryDirectory.appending(path: "baton-bench-store-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }

        var best = (write: 0.0, read: 0.0, baselineWrite: 0.0, baselineRead: 0.0)
        for round in 0..<3 {
            let folder = root.appending(path: "\(round)")
            let store = FileEntityStore(folder: folder.appending(path: "store"))
            let plain = folder.appending(path: "plain")
            try FileManager.default.createDirectory(at: plain, withIntermediateDirectories: true)
            let encoder = JSONEncoder()
            let decoder = JSONDecoder()

            let baselineWrite = try rate(count) {
                for item in items { try encoder.encode(item).write(to: plain.appending(path: "\(item.id).json"), options: .atomic) }
            }
            let write = try rate(count) {
                for item in items { try store.save(item) }
            }
            let baselineRead = try rate(count) {
                for item in items {
                    let data = try Data(contentsOf: plain.appending(path: "\(item.id).json"))
                    guard try decoder.decode(Item.self, from: data).id == item.id else { throw StoreBenchFailure() }
                }
            }
            let read = try rate(count) {
                for item in items { guard try store.read(Item.self, id: item.id)?.id == item.id else { throw StoreBenchFailure() } }
            }
            best = (max(best.write, write), max(best.read, read), max(best.baselineWrite, baselineWrite), max(best.baselineRead, baselineRead))
        }
        let label = count.formatted()
        return [
            BenchResult(
                name: "store.write", label: "\(label) small entities saved", value: best.write, unit: "/s",
                baseline: best.baselineWrite, baselineLabel: "Data.write(.atomic)", target: .atLeast(0.8)
            ),
            BenchResult(
                name: "store.read", label: "\(label) small entities read by id", value: best.read, unit: "/s",
                baseline: best.baselineRead, baselineLabel: "Data(contentsOf:)", target: .atLeast(1.0)
            ),
        ]
    }

    private struct StoreBenchFailure: Error, CustomStringConvertible {
        var description: String { "an entity read back was not the one saved" }
    }

    /// How many of `count` per second `body` does.
    private static func rate(_ count: Int, _ body: () throws -> Void) throws -> Double {
        let start = ContinuousClock.now
        try body()
        return Double(count) / (ContinuousClock.now - start).timeInterval
    }
}
