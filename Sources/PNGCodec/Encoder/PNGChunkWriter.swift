import Deflate

/// Writes the signature and chunks (length, type, data, CRC-32 over type and data; PNG 5.3) to
/// a sink, each chunk as it is made.
enum PNGChunkWriter {
    static func writeSignature<E: Error>(to sink: (UnsafeRawBufferPointer) throws(E) -> Void) throws(E) {
        try emit(PNGSignature.bytes, to: sink)
    }

    /// A small chunk (header data, palette, profile).
    static func writeChunk<E: Error>(_ type: ChunkType, _ data: [UInt8],
                                     to sink: (UnsafeRawBufferPointer) throws(E) -> Void) throws(E) {
        try emit(bigEndian(UInt32(truncatingIfNeeded: data.count)) + bigEndian(type.rawValue) + data, to: sink)
        var crc = CRC32()
        crc.update(bigEndian(type.rawValue))
        crc.update(data)
        try emit(bigEndian(crc.value), to: sink)
    }

    /// A chunk whose data the sink receives as it is, without a copy (IDAT).
    static func writeChunk<E: Error>(_ type: ChunkType, _ data: UnsafeRawBufferPointer,
                                     to sink: (UnsafeRawBufferPointer) throws(E) -> Void) throws(E) {
        try emit(bigEndian(UInt32(truncatingIfNeeded: data.count)) + bigEndian(type.rawValue), to: sink)
        var crc = CRC32()
        crc.update(bigEndian(type.rawValue))
        crc.update(data)
        if data.count > 0 { try sink(data) }
        try emit(bigEndian(crc.value), to: sink)
    }

    /// Hands `bytes` to `sink` (through a buffer of its own: `Array.withUnsafeBytes` cannot
    /// pass a typed error on).
    private static func emit<E: Error>(_ bytes: [UInt8], to sink: (UnsafeRawBufferPointer) throws(E) -> Void) throws(E) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 1)
        defer { buffer.deallocate() }
        buffer.copyBytes(from: bytes)
        try sink(UnsafeRawBufferPointer(buffer))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> UInt32(24 - 8 * $0)) }
    }
}
