import Deflate

/// Edits PNG files chunk by chunk for the mutation tests (with correct CRCs where asked).
struct PNGFileEditor {
    /// One chunk's position in the file.
    struct Chunk {
        /// Offset of the length field.
        let offset: Int
        /// Data length.
        let length: Int
        /// The four type letters.
        let type: String
        /// Offset of the first data byte.
        var dataOffset: Int { offset + 8 }
    }

    private(set) var bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The chunks of a well-formed file, in order.
    var chunks: [Chunk] {
        var result: [Chunk] = []
        var offset = 8
        while offset + 12 <= bytes.count {
            let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            guard offset + 12 + length <= bytes.count else { break }
            result.append(Chunk(offset: offset, length: length, type: type))
            offset += 12 + length
        }
        return result
    }

    /// Sets a chunk's length field only (the CRC stays where the old length put it).
    mutating func setLengthField(of chunk: Chunk, to length: UInt32) {
        for i in 0..<4 { bytes[chunk.offset + i] = UInt8(truncatingIfNeeded: length >> UInt32(24 - 8 * i)) }
    }

    /// Replaces a chunk's data, fixing its length and CRC: the damage is only in the data.
    mutating func replaceData(of chunk: Chunk, with data: [UInt8]) {
        let typeBytes = Array(bytes[(chunk.offset + 4)..<(chunk.offset + 8)])
        var crc = CRC32()
        crc.update(typeBytes + data)
        let length = UInt32(data.count)
        var encoded: [UInt8] = (0..<4).map { UInt8(truncatingIfNeeded: length >> UInt32(24 - 8 * $0)) }
        encoded += typeBytes + data
        encoded += (0..<4).map { UInt8(truncatingIfNeeded: crc.value >> UInt32(24 - 8 * $0)) }
        bytes.replaceSubrange(chunk.offset..<(chunk.dataOffset + chunk.length + 4), with: encoded)
    }

    /// The data bytes of a chunk.
    func data(of chunk: Chunk) -> [UInt8] { Array(bytes[chunk.dataOffset..<(chunk.dataOffset + chunk.length)]) }
}
