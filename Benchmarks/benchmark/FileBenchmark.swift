import Foundation
import ImageCore

/// Measures one file: reads it into memory once, then times decoding the in-memory bytes.
struct FileBenchmark {
    let timer: SampleTimer
    let chunkSize: Int?
    /// Take a preview after every chunk that changed the picture (image decoders only).
    var takePreviews = false
    /// Options for image decoders (threads, JPEG scale).
    var decodingOptions = DecodingOptions()

    func run(_ input: BenchmarkInput) -> BenchmarkResult {
        guard let data = FileManager.default.contents(atPath: input.path) else {
            return BenchmarkResult(path: input.path, kind: input.kind, inputBytes: 0,
                                   measurement: .failed(error: "cannot read the file"))
        }
        let bytes = [UInt8](data)
        func result(_ measurement: BenchmarkResult.Measurement) -> BenchmarkResult {
            BenchmarkResult(path: input.path, kind: input.kind, inputBytes: bytes.count, measurement: measurement)
        }
        guard let kind = input.kind else {
            return result(.failed(error: "unknown file extension (expected .zlib, .gz, .deflate, .png, .jpg, .jpeg, .gif, .webp)"))
        }
        let runner: any DecodeRunner
        switch RunnerCatalog.runner(for: kind, options: decodingOptions, takingPreviews: takePreviews) {
        case .success(let found): runner = found
        case .failure(let unsupported): return result(.skipped(reason: unsupported.reason))
        }
        do {
            let (outcome, median) = try bytes.withUnsafeBytes { buffer in
                try timer.measure { try runner.decode(buffer, chunkSize: chunkSize) }
            }
            return result(.measured(outcome, medianSeconds: median, crc32: runner.lastOutputCRC32()))
        } catch {
            return result(.failed(error: String(describing: error)))
        }
    }
}
