/// A DEFLATE compressor (RFC 1951) with zlib (RFC 1950) and gzip (RFC 1952) framing, used to
/// write PNGs.
///
/// LZ77 with one hash probe per position at level 1, hash chains from level 2 (lazy matching
/// from level 4) and, per block of up to 16 Ki tokens,
/// whichever of stored, fixed-Huffman or dynamic-Huffman coding is smallest; dynamic codes are
/// optimal length-limited Huffman codes. Level 0 stores without compressing.
///
/// ```swift
/// let zlibStream = Deflater.compress(pixels)                        // zlib, level 6
/// let gzipFile = Deflater.compress(text, format: .gzip, level: 9)
/// ```
public enum Deflater {
    /// The default level: zlib's balance of size and speed.
    public static let defaultLevel = 6

    /// Compresses `bytes` into a complete stream of `format` at `level` (0: stored only,
    /// 1: fastest … 9: smallest; values outside 0...9 are clamped).
    public static func compress(_ bytes: [UInt8], format: DeflateFormat = .zlib, level: Int = defaultLevel,
                                strategy: DeflateStrategy = .default) -> [UInt8] {
        bytes.withUnsafeBufferPointer { compress($0, format: format, level: level, strategy: strategy) }
    }

    /// Compresses the bytes of a buffer; the same as compressing an array of them.
    public static func compress(_ bytes: UnsafeBufferPointer<UInt8>, format: DeflateFormat = .zlib,
                                level: Int = defaultLevel, strategy: DeflateStrategy = .default) -> [UInt8] {
        let level = min(max(level, 0), 9)
        // Most data shrinks to well under half; the writer grows when it does not.
        let writer = DeflaterBitWriter(initialCapacity: bytes.count / 2 + 64)
        writeHeader(format: format, level: level, to: writer)
        DeflaterEngine(level: level, strategy: strategy).compress(bytes, from: 0, isFinal: true, to: writer)
        writer.alignToByte()
        var checksum = DeflateChecksum(format: format)
        checksum.update(UnsafeRawBufferPointer(bytes))
        checksum.writeTrailer(to: writer)
        return writer.bytes()
    }

    /// zlib CMF/FLG (RFC 1950 2.2) or the 10-byte gzip header (RFC 1952 2.3).
    static func writeHeader(format: DeflateFormat, level: Int, to writer: DeflaterBitWriter) {
        switch format {
        case .raw:
            return
        case .zlib:
            // CM 8 (deflate), CINFO 7 (32 KiB window).
            let cmf: UInt8 = 0x78
            // FLEVEL (bits 6–7) only informs: 0 fastest, 1 fast, 2 default, 3 smallest.
            let flevel: UInt8 = level < 2 ? 0 : level < 6 ? 1 : level == 6 ? 2 : 3
            var flg = flevel << 6
            // FCHECK makes CMF·256 + FLG a multiple of 31.
            let remainder = (UInt16(cmf) << 8 | UInt16(flg)) % 31
            if remainder != 0 { flg += UInt8(31 - remainder) }
            writer.appendByte(cmf)
            writer.appendByte(flg)
        case .gzip:
            // ID1 ID2, CM 8, FLG 0, MTIME 0 (none), XFL (2: best, 4: fastest), OS 255 (unknown).
            let xfl: UInt8 = level == 9 ? 2 : level == 1 ? 4 : 0
            for byte: UInt8 in [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, xfl, 0xFF] { writer.appendByte(byte) }
        }
    }
}
