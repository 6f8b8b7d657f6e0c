/// The measurement of one input file: either figures or the reason there are none.
struct BenchmarkResult {
    /// The file's path as given or found.
    let path: String
    /// Kind from the extension; nil when the extension is unknown.
    let kind: InputKind?
    /// Size of the file.
    let inputBytes: Int
    /// How the measurement went.
    let measurement: Measurement

    enum Measurement {
        /// Decoded and timed.
        case measured(DecodeOutcome, medianSeconds: Double, crc32: UInt32)
        /// No decoder for this kind yet; the file was not decoded.
        case skipped(reason: String)
        /// The file could not be read or decoding threw.
        case failed(error: String)
    }

    /// Output per second: MB/s (10^6 bytes) of output for streams, Mpix/s for images.
    var throughput: (value: Double, unit: String)? {
        guard case .measured(let outcome, let seconds, _) = measurement, seconds > 0 else { return nil }
        if let width = outcome.width, let height = outcome.height {
            return (Double(width) * Double(height) / 1e6 / seconds, "Mpix/s")
        }
        return (Double(outcome.outputBytes) / 1e6 / seconds, "MB/s")
    }
}
