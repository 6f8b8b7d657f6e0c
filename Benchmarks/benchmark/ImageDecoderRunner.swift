import ImageCore
import Deflate

/// Benchmarks any ``IncrementalImageDecoder``: a fresh decoder per decode, input fed in one
/// call or chunk by chunk, then `finish()`. The output is the image in its natural format.
final class ImageDecoderRunner: DecodeRunner {
    private let makeDecoder: () -> any IncrementalImageDecoder
    /// The last decoded image, kept for the checksum.
    private var lastImage: Image?

    /// `makeDecoder` returns a new decoder with the options to benchmark.
    init(makeDecoder: @escaping () -> any IncrementalImageDecoder) {
        self.makeDecoder = makeDecoder
    }

    func decode(_ input: UnsafeRawBufferPointer, chunkSize: Int?) throws -> DecodeOutcome {
        lastImage = nil
        let decoder = makeDecoder()
        try input.forEachChunk(of: chunkSize) { chunk in
            try decoder.feed(chunk)
        }
        let image = try decoder.finish()
        lastImage = image
        return DecodeOutcome(outputBytes: image.pixels.count, width: image.width, height: image.height)
    }

    func lastOutputCRC32() -> UInt32 {
        guard let lastImage else { return 0 }
        return lastImage.pixels.withUnsafeBytes { bytes in var crc = CRC32(); crc.update(bytes); return crc.value }
    }
}
