import ImageCore

/// Reads big-endian fields from one marker segment's payload (the bytes after the length field),
/// checking every read against the segment's end.
///
/// Errors name the segment and carry the stream offset of the byte that was missing or wrong.
struct SegmentReader {
    /// The payload; valid only while the segment is being parsed.
    let bytes: UnsafeRawBufferPointer
    /// Stream offset of `bytes[0]`.
    let streamOffset: Int
    /// Marker name for messages, e.g. "SOF0".
    let name: String
    /// Index of the next byte to read.
    private(set) var index = 0

    init(bytes: UnsafeRawBufferPointer, streamOffset: Int, name: String) {
        self.bytes = bytes
        self.streamOffset = streamOffset
        self.name = name
    }

    /// Bytes not read yet.
    var remaining: Int { bytes.count - index }

    /// Stream offset of the next byte.
    var offset: Int { streamOffset + index }

    /// Reads one byte.
    mutating func u8() throws -> UInt8 {
        guard index < bytes.count else { throw tooShort(1) }
        let value = bytes[index]
        index += 1
        return value
    }

    /// Reads a big-endian 16-bit value.
    mutating func u16() throws -> Int {
        guard remaining >= 2 else { throw tooShort(2) }
        let value = Int(bytes[index]) << 8 | Int(bytes[index + 1])
        index += 2
        return value
    }

    /// Skips `count` bytes.
    mutating func skip(_ count: Int) throws {
        guard count >= 0, remaining >= count else { throw tooShort(count) }
        index += count
    }

    /// The next `count` bytes as an array.
    mutating func bytes(_ count: Int) throws -> [UInt8] {
        guard count >= 0, remaining >= count else { throw tooShort(count) }
        let out = Array(UnsafeRawBufferPointer(rebasing: bytes[index..<(index + count)]))
        index += count
        return out
    }

    /// An `invalidData` error at the next byte.
    func invalid(_ message: String) -> ImageDecodingError {
        ImageDecodingError(.invalidData, at: offset, "\(name): \(message)")
    }

    private func tooShort(_ wanted: Int) -> ImageDecodingError {
        ImageDecodingError(.invalidData, at: offset,
                           "\(name) segment too short: needed \(wanted) more byte(s), \(remaining) left")
    }
}
