import ImageCore

/// The parsed and validated IHDR chunk (PNG 11.2.2).
struct IHDRChunk: Equatable {
    /// Width in pixels, 1 ... 2^31 - 1.
    let width: Int
    /// Height in pixels, 1 ... 2^31 - 1.
    let height: Int
    /// Bits per sample (per palette index for colour type 3).
    let bitDepth: Int
    /// The colour type.
    let colorType: PNGColorType
    /// Interlace method 1 (Adam7).
    let isInterlaced: Bool

    /// IHDR data is exactly 13 bytes: width 4, height 4, depth, colour type, compression, filter, interlace.
    static let length = 13

    /// Bits of one pixel as stored: channels × depth (1 ... 64).
    var bitsPerPixel: Int { colorType.channels * bitDepth }

    /// The byte distance filters look back (PNG 9.2 "bpp"): bytes per complete pixel, at least 1.
    var filterStride: Int { max(1, bitsPerPixel / 8) }

    /// Bytes of one unfiltered row `width` pixels wide (without the filter-type byte); nil on overflow.
    func rowBytes(width: Int) -> Int? {
        let (bits, overflow) = width.multipliedReportingOverflow(by: bitsPerPixel)
        guard !overflow, bits <= Int.max - 7 else { return nil }
        return (bits + 7) / 8
    }

    /// Parses IHDR data (`data.count` is checked here) found at file offset `offset`.
    static func parse(_ data: UnsafeRawBufferPointer, at offset: Int, limits: Limits) throws -> IHDRChunk {
        guard data.count == length else {
            throw ImageDecodingError(.invalidData, at: offset, "PNG IHDR is \(data.count) bytes long, expected \(length)")
        }
        let width = Int(readUInt32(data, 0)), height = Int(readUInt32(data, 4))
        for (value, name, field) in [(width, "width", 0), (height, "height", 4)] {
            guard value >= 1, value <= ChunkHeader.maxLength else {
                throw ImageDecodingError(.invalidData, at: offset + field,
                                         "PNG IHDR declares \(name) \(value); it must be 1 ... 2^31-1")
            }
        }
        let depth = Int(data[8])
        guard let colorType = PNGColorType(rawValue: data[9]) else {
            throw ImageDecodingError(.invalidData, at: offset + 9,
                                     "PNG IHDR declares colour type \(data[9]); only 0, 2, 3, 4 and 6 exist")
        }
        guard colorType.allows(bitDepth: depth) else {
            throw ImageDecodingError(.invalidData, at: offset + 8,
                                     "PNG IHDR declares bit depth \(depth), not allowed for \(colorType.name) images")
        }
        guard data[10] == 0 else {
            throw ImageDecodingError(.invalidData, at: offset + 10,
                                     "PNG IHDR declares compression method \(data[10]); only 0 (deflate) exists")
        }
        guard data[11] == 0 else {
            throw ImageDecodingError(.invalidData, at: offset + 11,
                                     "PNG IHDR declares filter method \(data[11]); only 0 exists")
        }
        guard data[12] <= 1 else {
            throw ImageDecodingError(.invalidData, at: offset + 12,
                                     "PNG IHDR declares interlace method \(data[12]); only 0 and 1 (Adam7) exist")
        }
        _ = try limits.checkDimensions(width: width, height: height, at: offset, format: "PNG IHDR")
        return IHDRChunk(width: width, height: height, bitDepth: depth, colorType: colorType, isInterlaced: data[12] == 1)
    }
}
