/// The 8-byte header of a RIFF chunk (WebP container spec, "RIFF File Format"): a FourCC and
/// a little-endian 32-bit payload size. Payloads of odd size are followed by one padding byte.
struct RIFFChunkHeader: Equatable {
    /// Header bytes: FourCC (4) + size (4).
    static let byteCount = 8

    /// The chunk's FourCC, e.g. `VP8L`.
    let tag: WebPChunkTag
    /// Payload bytes (without the padding byte).
    let size: Int
    /// Offset of the payload's first byte in the file.
    let payloadOffset: Int

    /// Payload plus the padding byte of an odd-sized chunk.
    var paddedSize: Int { size + (size & 1) }

    /// Reads a header from the first 8 bytes of `bytes`, which start at file offset `offset`.
    init(_ bytes: UnsafeRawBufferPointer, at offset: Int) {
        tag = WebPChunkTag(bytes[0], bytes[1], bytes[2], bytes[3])
        size = Int(littleEndian32(bytes, 4))
        payloadOffset = offset + Self.byteCount
    }
}

/// The little-endian 32-bit number at `bytes[at ..< at + 4]`.
@inline(__always)
func littleEndian32(_ bytes: UnsafeRawBufferPointer, _ at: Int) -> UInt32 {
    UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
}

/// The little-endian 24-bit number at `bytes[at ..< at + 3]`.
@inline(__always)
func littleEndian24(_ bytes: UnsafeRawBufferPointer, _ at: Int) -> Int {
    Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16
}
