import Deflate

/// Benchmarks ``Inflater`` on zlib, gzip or raw DEFLATE streams.
///
/// Fed in chunks (or always, with `streaming`), output goes through the streaming API and is
/// copied into a reused ``OutputCollector``, as a caller gathering the whole result would do.
/// Fed whole, the runs after the first decode straight into the collector's storage with
/// `Inflater.decompress(_:format:into:)`, given the output size the first run found: the way
/// libdeflate is called (it needs the size).
final class InflateRunner: DecodeRunner {
    private let format: DeflateFormat
    private let streaming: Bool
    private let collector = OutputCollector()
    /// The output size found by the last streaming decode of the whole input.
    private var knownOutputSize: Int?

    init(format: DeflateFormat, streaming: Bool) {
        self.format = format
        self.streaming = streaming
    }

    func decode(_ input: UnsafeRawBufferPointer, chunkSize: Int?) throws -> DecodeOutcome {
        if chunkSize == nil && !streaming, let size = knownOutputSize {
            let format = self.format
            try collector.fill(capacity: size) { try Inflater.decompress(input, format: format, into: $0) }
            return DecodeOutcome(outputBytes: collector.count, width: nil, height: nil)
        }
        collector.removeAll()
        let inflater = Inflater(format: format)
        let collector = self.collector
        try input.forEachChunk(of: chunkSize) { chunk in
            try inflater.feed(chunk) { collector.append($0) }
        }
        try inflater.finish()
        if chunkSize == nil { knownOutputSize = collector.count }
        return DecodeOutcome(outputBytes: collector.count, width: nil, height: nil)
    }

    func lastOutputCRC32() -> UInt32 { var crc = CRC32(); crc.update(collector.bytes); return crc.value }
}
