import Deflate
import PNGCodec
import Foundation
import ImageCore

/// Measures one file: reads it into memory once, then times decoding the in-memory bytes.
struct FileBenchmark {
    let timer: SampleTimer
    let chunkSize: Int?
    /// Take a preview after every chunk that changed the picture (image decoders only).
    var takePreviews = false
    /// Time `PNGEncoder` at this level on the decoded picture instead of the decoder.
    var encodePNGLevel: Int?
    /// Streams fed whole still go through the streaming API (else into a buffer of known size).
    var streaming = false
    /// Time this checksum over the file's bytes instead of decoding.
    var checksum: ChecksumAlgorithm?
    /// Options for image decoders (threads, JPEG scale, output format, colour space).
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
        if let checksum {
            runner = ChecksumRunner(algorithm: checksum)
        } else {
            switch RunnerCatalog.runner(for: kind, options: decodingOptions, takingPreviews: takePreviews, streaming: streaming) {
            case .success(let found): runner = found
            case .failure(let unsupported): return result(.skipped(reason: unsupported.reason))
            }
        }
        if let level = encodePNGLevel {
            return result(encodeMeasurement(bytes, decodingWith: runner, level: level))
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

    /// Decodes once (not timed), then times encoding the picture as PNG at `level`.
    private func encodeMeasurement(_ bytes: [UInt8], decodingWith runner: any DecodeRunner,
                                   level: Int) -> BenchmarkResult.Measurement {
        guard let imageRunner = runner as? ImageDecoderRunner else {
            return .skipped(reason: "--encode-png needs image inputs")
        }
        do {
            _ = try bytes.withUnsafeBytes { try imageRunner.decode($0, chunkSize: nil) }
            guard let image = imageRunner.lastImage else { return .failed(error: "no picture decoded") }
            let encoder = PNGEncoder(compressionLevel: level)
            let (encoded, median) = try timer.measure { encoder.encode(image) }
            var crc = CRC32()
            encoded.withUnsafeBytes { crc.update($0) }
            let outcome = DecodeOutcome(outputBytes: encoded.count, width: image.width, height: image.height)
            return .measured(outcome, medianSeconds: median, crc32: crc.value)
        } catch {
            return .failed(error: String(describing: error))
        }
    }
}
