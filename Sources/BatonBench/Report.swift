import Foundation

/// Prints results as the readable table or as the JSON array that tools read.
enum Report {
    static func printTable(suite: String, _ results: [BenchResult]) {
        print("")
        print(pad("suite \(suite)", 40) + pad("baton", 14) + pad("baseline", 26) + pad("ratio", 9) + "target")
        for result in results {
            let target = result.target.map { "\($0.label) \($0.isMet(by: result) ? "met" : "MISSED")" } ?? ""
            print(
                pad(result.label, 40)
                    + pad(figure(result.value, result.unit), 14)
                    + pad("\(result.baselineLabel) \(figure(result.baseline, result.unit))", 26)
                    + pad(ratio(result.ratio), 9)
                    + target
            )
        }
    }

    static func printJSON(_ results: [BenchResult]) {
        let objects: [[String: Any]] = results.map {
            ["name": $0.name, "value": rounded($0.value), "unit": $0.unit,
             "baseline": rounded($0.baseline), "ratio": rounded($0.ratio, places: 4)]
        }
        let data = (try? JSONSerialization.data(withJSONObject: objects, options: [.prettyPrinted, .sortedKeys])) ?? Data("[]".utf8)
        print(String(decoding: data, as: UTF8.self))
    }

    static func ratio(_ value: Double) -> String {
        value.isFinite ? String(format: "%.2fx", value) : "n/a"
    }

    static func figure(_ value: Double, _ unit: String) -> String {
        let number = value >= 100 ? String(format: "%.0f", value) : String(format: "%.1f", value)
        return "\(number) \(unit)"
    }

    private static func rounded(_ value: Double, places: Int = 2) -> Double {
        guard value.isFinite else { return 0 }
        let scale = pow(10, Double(places))
        return (value * scale).rounded() / scale
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        let count = text.count
        return count >= width ? text + " " : text + String(repeating: " ", count: width - count)
    }
}
