import Deflate

/// Benchmarks ``Inflater`` on zlib, gzip or raw DEFLATE streams. Output is copied into a
/// reused ``OutputCollector``, as a caller gathering the whole result would do.
final class InflateRunner: DecodeRunner {
    private let format: DeflateFormat
    private let collector = OutputCollector()

    init(format: DeflateFormat) {
        self.format = format
    }

    func decode(_ input: UnsafeRawBufferPointer, chunkSize: Int?) throws -> DecodeOutcome {
        collector.removeAll()
        let inflater = Inflater(format: format)
        let collector = self.collector
        try input.forEachChunk(of: chunkSize) { chunk in
            try inflater.feed(chunk) { collector.append($0) }
        }
        try inflater.finish()
        return DecodeOutcome(outputBytes: collector.count, width: nil, height: nil)
    }

    func lastOutputCRC32() -> UInt32 { var crc = CRC32(); crc.update(collector.bytes); return crc.value }
}
