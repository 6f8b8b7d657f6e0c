import ImageCore

/// The 8 bytes in front of every chunk (PNG 5.3): a 4-byte big-endian data length and the type.
struct ChunkHeader {
    /// Length of the chunk data (CRC not included), at most 2^31 - 1.
    let length: Int
    /// The chunk type.
    let type: ChunkType
    /// File offset of the length field.
    let offset: Int

    /// File offset of the first data byte.
    var dataOffset: Int { offset + ChunkHeader.size }
    /// File offset of the CRC that follows the data.
    var crcOffset: Int { dataOffset + length }

    /// Length field + type field: 4 + 4 = 8 bytes.
    static let size = 8
    /// The CRC after the data: 4 bytes.
    static let crcSize = 4
    /// PNG 5.3: lengths are limited to 2^31 - 1 "to accommodate languages that have difficulty with unsigned values".
    static let maxLength = 0x7FFF_FFFF

    /// Parses the 8 header bytes at the start of `bytes` (the caller has checked there are 8).
    static func parse(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws -> ChunkHeader {
        let length = Int(readUInt32(bytes, 0))
        let type = ChunkType(rawValue: readUInt32(bytes, 4))
        guard length <= maxLength else {
            throw ImageDecodingError(.invalidData, at: offset,
                                     "PNG chunk \(type) declares length \(length), more than the limit 2^31-1")
        }
        guard type.isValid else {
            throw ImageDecodingError(.invalidData, at: offset + 4,
                                     "PNG chunk type '\(type)' has bytes that are not ASCII letters")
        }
        return ChunkHeader(length: length, type: type, offset: offset)
    }
}

/// Reads a big-endian 32-bit value at `index` (the caller has checked `index + 4 <= bytes.count`).
@inline(__always)
func readUInt32(_ bytes: UnsafeRawBufferPointer, _ index: Int) -> UInt32 {
    UInt32(bytes[index]) << 24 | UInt32(bytes[index + 1]) << 16 | UInt32(bytes[index + 2]) << 8 | UInt32(bytes[index + 3])
}

/// Reads a big-endian 16-bit value at `index` (the caller has checked `index + 2 <= bytes.count`).
@inline(__always)
func readUInt16(_ bytes: UnsafeRawBufferPointer, _ index: Int) -> UInt16 {
    UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1])
}
