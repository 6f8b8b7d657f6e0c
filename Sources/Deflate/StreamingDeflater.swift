/// A DEFLATE compressor fed in pieces, for output too large to hold twice in memory (a PNG
/// encoder's filtered rows): it keeps one band of input plus the 32 KiB before it, compresses
/// each full band, and hands out the compressed bytes as they are made.
///
/// Each band is tokenised on its own with the previous 32 KiB as history, so matches still reach
/// back across band edges, and its last block stays open into the next band; only matches that
/// would run past a band's end are cut there. The
/// stream is a valid zlib/gzip/raw stream whatever the pieces were; it equals
/// ``Deflater/compress(_:format:level:strategy:)``'s output when everything fits in one band.
///
/// ```swift
/// let deflater = StreamingDeflater(format: .zlib, level: 1)
/// for row in rows { row.withUnsafeBytes { deflater.write($0) } }
/// deflater.finish()
/// var stream: [UInt8] = []
/// deflater.consumeOutput { stream += $0; return $0.count }
/// ```
public final class StreamingDeflater {
    /// Input compressed at a time when nothing else is said: 1 MiB.
    public static let defaultBandSize = 1 << 20

    private let format: DeflateFormat
    private let engine: DeflaterEngine
    private let writer: DeflaterBitWriter
    private var checksum: DeflateChecksum
    private let bandSize: Int
    /// `history` already compressed bytes (the last 32 KiB, or the open block's bytes if more)
    /// followed by pending input.
    private var buffer: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var count = 0
    private var history = 0
    /// Whether ``finish()`` has run: later writes are ignored.
    public private(set) var isFinished = false

    /// A compressor writing `format` at `level` (0...9, clamped) with `strategy`, compressing
    /// every `bandSize` bytes of input (at least 64 KiB).
    public init(format: DeflateFormat = .zlib, level: Int = Deflater.defaultLevel,
                strategy: DeflateStrategy = .default, bandSize: Int = StreamingDeflater.defaultBandSize) {
        let level = min(max(level, 0), 9)
        self.format = format
        self.bandSize = max(bandSize, 1 << 16)
        engine = DeflaterEngine(level: level, strategy: strategy)
        writer = DeflaterBitWriter(initialCapacity: self.bandSize / 2)
        checksum = DeflateChecksum(format: format)
        capacity = DeflaterEngine.maxOpenBlock + self.bandSize
        buffer = .allocate(capacity: capacity)
        Deflater.writeHeader(format: format, level: level, to: writer)
    }

    deinit { buffer.deallocate() }

    /// Compressed bytes made so far and not yet consumed.
    public var outputCount: Int { writer.count }

    /// Adds `bytes` to the stream.
    public func write(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            let piece = min(bytes.count - offset, bandSize)
            write(count: piece) { $0.copyMemory(from: source + offset, byteCount: piece) }
            offset += piece
        }
    }

    /// Adds `count` bytes that `fill` writes straight into the compressor's buffer (no copy
    /// through the caller's memory); `fill` must initialise all `count` bytes.
    public func write(count byteCount: Int, _ fill: (UnsafeMutableRawPointer) -> Void) {
        guard !isFinished, byteCount > 0 else { return }
        if count - history + byteCount > bandSize { compressPending(isFinal: false) }
        if count + byteCount > capacity {
            // A piece larger than a band: grow once for it.
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: count + byteCount)
            grown.update(from: buffer, count: count)
            buffer.deallocate()
            buffer = grown
            capacity = count + byteCount
        }
        fill(UnsafeMutableRawPointer(buffer + count))
        checksum.update(UnsafeRawBufferPointer(start: buffer + count, count: byteCount))
        count += byteCount
    }

    /// Compresses what is pending as the last blocks and appends the trailer.
    public func finish() {
        guard !isFinished else { return }
        compressPending(isFinal: true)
        isFinished = true
        writer.alignToByte()
        checksum.writeTrailer(to: writer)
    }

    /// Hands the compressed bytes not yet consumed to `body`, which returns how many of them
    /// (from the front) it used; the rest stay for the next call.
    public func consumeOutput<E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> Int) throws(E) {
        let used = try writer.withFinishedBytes(body)
        writer.removeFirst(min(max(used, 0), writer.count))   // a body's bad count cannot reach the writer
    }

    /// Compresses the pending input after the history, then keeps as history its last 32 KiB
    /// and the bytes of the block left open.
    private func compressPending(isFinal: Bool) {
        guard count > history || isFinal else { return }
        engine.reset()
        engine.compress(UnsafeBufferPointer(start: buffer, count: count), from: history, isFinal: isFinal, to: writer)
        let history32K = min(count, DeflaterSymbols.maxDistance)
        let openBlockBytes = count - (engine.openBlockStart ?? count)
        let kept = openBlockBytes <= DeflaterEngine.maxOpenBlock ? max(history32K, openBlockBytes) : history32K
        buffer.update(from: buffer + (count - kept), count: kept)
        engine.bufferShifted(by: count - kept)
        count = kept
        history = kept
    }
}
