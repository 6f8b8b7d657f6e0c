/// The human-readable report: a header, one row per file as soon as it is measured, and a
/// footer with totals, the combined checksum of all outputs and a note on skipped kinds.
struct TableReport {
    private let fileColumnWidth: Int
    private var measuredCount = 0
    private var failedCount = 0
    /// Skip reason -> number of files, so skipped kinds take one footer line, not a row each.
    private var skipped: [String: Int] = [:]
    private var skippedOrder: [String] = []
    /// CRC-32s of all outputs folded together: changes if any decoder's output changes.
    private var combinedChecksum: UInt32 = 0

    init(inputs: [BenchmarkInput]) {
        fileColumnWidth = max(4, inputs.map { $0.path.count }.max() ?? 0)
    }

    func printHeader(options: BenchmarkOptions) {
        var feeding = options.chunkSize.map { "\($0)-byte chunks" } ?? "whole file per feed"
        if let checksum = options.checksum { feeding = "\(checksum.rawValue) of each file's bytes, " + feeding }
        if let level = options.encodePNGLevel { feeding = "PNGEncoder level \(level) on each decoded picture (output B: PNG size)" }
        let threads = options.threads > 1 ? ", up to \(options.threads) threads" : ""
        let scale = options.scale == .full ? "" : ", JPEG at 1/\(options.scale.denominator) scale"
        print("benchmark: median of \(options.repeatCount) runs after a warm-up, \(feeding)\(threads)\(scale), release build expected")
        print(row("file", "kind", "input B", "output B", "median ms", "throughput"))
        print(String(repeating: "-", count: fileColumnWidth + 55))
    }

    mutating func add(_ result: BenchmarkResult) {
        let kind = result.kind?.rawValue ?? "?"
        switch result.measurement {
        case .measured(let outcome, let seconds, let crc32):
            measuredCount += 1
            combinedChecksum = (combinedChecksum &* 31) ^ crc32
            let speed = result.throughput.map { format($0.value, decimals: 1) + " " + $0.unit } ?? "-"
            print(row(result.path, kind, "\(result.inputBytes)", "\(outcome.outputBytes)",
                      format(seconds * 1000, decimals: seconds < 1e-4 ? 5 : 3), speed))
        case .failed(let error):
            failedCount += 1
            print(row(result.path, kind, "\(result.inputBytes)", "-", "-", "error: \(error)"))
        case .skipped(let reason):
            if skipped[reason] == nil { skippedOrder.append(reason) }
            skipped[reason, default: 0] += 1
        }
    }

    func printFooter() {
        print(String(repeating: "-", count: fileColumnWidth + 55))
        print("\(measuredCount) decoded, \(failedCount) failed, \(skipped.values.reduce(0, +)) skipped; "
              + "output checksum \(hex(combinedChecksum))")
        for reason in skippedOrder {
            print("skipped \(skipped[reason] ?? 0) files: \(reason)")
        }
    }

    private func row(_ file: String, _ kind: String, _ input: String, _ output: String,
                     _ milliseconds: String, _ speed: String) -> String {
        pad(file, fileColumnWidth) + "  " + pad(kind, 5) + leftPad(input, 12) + leftPad(output, 12)
            + leftPad(milliseconds, 12) + "  " + speed
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    private func leftPad(_ text: String, _ width: Int) -> String {
        text.count >= width ? " " + text : String(repeating: " ", count: width - text.count) + text
    }

    private func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }
}

/// `value` with a fixed number of decimals, without Foundation's `String(format:)`.
func format(_ value: Double, decimals: Int) -> String {
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let scaled = (value * scale).rounded()
    guard scaled.isFinite, abs(scaled) < 1e15 else { return "\(value)" }
    let whole = Int64(scaled)
    let sign = whole < 0 ? "-" : ""
    let magnitude = whole.magnitude
    let integerPart = magnitude / UInt64(scale)
    guard decimals > 0 else { return sign + "\(integerPart)" }
    let fraction = String(magnitude % UInt64(scale))
    return sign + "\(integerPart)." + String(repeating: "0", count: decimals - fraction.count) + fraction
}
