import Deflate

/// Builds small PNG files by hand for rule and metadata tests: chunks with correct CRCs and
/// zlib streams made of stored blocks (RFC 1950/1951), so no compressor is involved.
enum TestPNGBuilder {
    /// A chunk: length, type, data, CRC-32 over type and data.
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        var crc = CRC32()
        crc.update(typeBytes + data)
        return be32(UInt32(data.count)) + typeBytes + data + be32(crc.value)
    }

    /// IHDR for the given fields (compression and filter method 0).
    static func ihdr(width: Int, height: Int, bitDepth: Int, colorType: Int, interlaced: Bool = false) -> [UInt8] {
        chunk("IHDR", be32(UInt32(width)) + be32(UInt32(height)) + [UInt8(bitDepth), UInt8(colorType), 0, 0, interlaced ? 1 : 0])
    }

    /// A zlib stream holding `data` in stored blocks of at most 65 535 bytes.
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]   // CM 8, 32 KiB window; FCHECK makes 0x7801 a multiple of 31
        var start = 0
        repeat {
            let end = min(start + 65_535, data.count)
            let length = UInt16(end - start)
            out.append(end == data.count ? 1 : 0)   // BFINAL, BTYPE 00
            out += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
            out += data[start..<end]
            start = end
        } while start < data.count
        return out + be32(Adler32.checksum(data))
    }

    /// IDAT holding `rows` (each already with its filter byte) as one stored zlib stream.
    static func idat(_ filteredRows: [UInt8]) -> [UInt8] { chunk("IDAT", zlibStored(filteredRows)) }

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    static let iend = chunk("IEND", [])

    /// Signature + chunks.
    static func file(_ chunks: [[UInt8]]) -> [UInt8] { signature + chunks.flatMap { $0 } }

    /// A 2×2 8-bit RGB file with unfiltered rows (R, G, B per pixel), plus extra chunks after IHDR.
    static func rgb2x2(extraBeforeIDAT: [[UInt8]] = [], extraAfterIDAT: [[UInt8]] = []) -> [UInt8] {
        let rows: [UInt8] = [0, 255, 0, 0, 0, 255, 0,
                             0, 0, 0, 255, 10, 20, 30]
        return file([ihdr(width: 2, height: 2, bitDepth: 8, colorType: 2)] + extraBeforeIDAT + [idat(rows)]
                    + extraAfterIDAT + [iend])
    }

    /// Big-endian 32-bit.
    static func be32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> UInt32(24 - 8 * $0)) } }
}
