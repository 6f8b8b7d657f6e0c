import Deflate

/// Appends the signature and chunks (length, type, data, CRC-32 over type and data; PNG 5.3).
struct PNGChunkWriter {
    private(set) var bytes: [UInt8] = []

    mutating func writeSignature() { bytes += PNGSignature.bytes }

    mutating func writeChunk(_ type: ChunkType, _ data: [UInt8]) {
        data.withUnsafeBufferPointer { writeChunk(type, $0) }
    }

    mutating func writeChunk(_ type: ChunkType, _ data: UnsafeBufferPointer<UInt8>) {
        appendUInt32(UInt32(truncatingIfNeeded: data.count))
        let typeStart = bytes.count
        appendUInt32(type.rawValue)
        bytes += data
        var crc = CRC32()
        bytes.withUnsafeBytes { crc.update(UnsafeRawBufferPointer(rebasing: $0[typeStart...])) }
        appendUInt32(crc.value)
    }

    private mutating func appendUInt32(_ value: UInt32) {
        bytes += (0..<4).map { UInt8(truncatingIfNeeded: value >> UInt32(24 - 8 * $0)) }
    }
}
