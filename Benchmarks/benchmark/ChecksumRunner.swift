import Deflate

/// The checksums `--checksum` can time.
enum ChecksumAlgorithm: String {
    case crc32
    case adler32
}

/// Times a checksum over the input bytes (any kind of file), fed whole or in chunks as a
/// decoder would be: the speed of ``CRC32`` or ``Adler32`` on their own.
final class ChecksumRunner: DecodeRunner {
    private let algorithm: ChecksumAlgorithm
    private var lastValue: UInt32 = 0

    init(algorithm: ChecksumAlgorithm) {
        self.algorithm = algorithm
    }

    func decode(_ input: UnsafeRawBufferPointer, chunkSize: Int?) throws -> DecodeOutcome {
        switch algorithm {
        case .crc32:
            var crc = CRC32()
            input.forEachChunk(of: chunkSize) { crc.update($0) }
            lastValue = crc.value
        case .adler32:
            var adler = Adler32()
            input.forEachChunk(of: chunkSize) { adler.update($0) }
            lastValue = adler.value
        }
        return DecodeOutcome(outputBytes: input.count, width: nil, height: nil)
    }

    /// The checksum itself (for `adler32` the Adler-32, reported in the crc32 field).
    func lastOutputCRC32() -> UInt32 { lastValue }
}
