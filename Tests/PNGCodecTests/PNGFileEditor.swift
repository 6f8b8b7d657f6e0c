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
        bytes.replaceSubrange(chunk.offset..<(chunk.offset + 4), with: TestPNGBuilder.be32(length))
    }

    /// Replaces a chunk's data, fixing its length and CRC: the damage is only in the data.
    mutating func replaceData(of chunk: Chunk, with data: [UInt8]) {
        let type = String(decoding: bytes[(chunk.offset + 4)..<(chunk.offset + 8)], as: UTF8.self)
        bytes.replaceSubrange(chunk.offset..<(chunk.dataOffset + chunk.length + 4), with: TestPNGBuilder.chunk(type, data))
    }

    /// The data bytes of a chunk.
    func data(of chunk: Chunk) -> [UInt8] { Array(bytes[chunk.dataOffset..<(chunk.dataOffset + chunk.length)]) }
}
