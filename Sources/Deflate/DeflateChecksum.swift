/// The check value a stream's framing ends with, kept as the data goes by: Adler-32 for zlib
/// (RFC 1950 2.2), CRC-32 and the length for gzip (RFC 1952 2.3), nothing for raw DEFLATE.
struct DeflateChecksum {
    private let format: DeflateFormat
    private var adler = Adler32()
    private var crc = CRC32()
    private var length = 0

    init(format: DeflateFormat) { self.format = format }

    /// Adds `bytes` (uncompressed data, in stream order).
    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        switch format {
        case .raw: return
        case .zlib: adler.update(bytes)
        case .gzip:
            crc.update(bytes)
            length &+= bytes.count
        }
    }

    /// Appends the trailer: Adler-32 big-endian (zlib) or CRC-32 and ISIZE little-endian (gzip).
    /// The writer must be byte-aligned.
    func writeTrailer(to writer: DeflaterBitWriter) {
        switch format {
        case .raw:
            return
        case .zlib:
            for shift: UInt32 in [24, 16, 8, 0] { writer.appendByte(UInt8(truncatingIfNeeded: adler.value >> shift)) }
        case .gzip:
            // ISIZE is the length modulo 2^32.
            let size = UInt32(truncatingIfNeeded: length)
            for value in [crc.value, size] {
                for shift: UInt32 in [0, 8, 16, 24] { writer.appendByte(UInt8(truncatingIfNeeded: value >> shift)) }
            }
        }
    }
}
