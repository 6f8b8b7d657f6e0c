/// Bounds-checked big-endian reads from profile bytes (ICC.1 4.1: every number is big-endian).
///
/// Every read checks its range and throws `truncated` with the offset, so no index a profile
/// declares can trap.
struct ICCDataReader {
    let bytes: [UInt8]

    /// Profile length (the header's size field, capped to the bytes present).
    var count: Int { bytes.count }

    /// Throws unless `offset ..< offset + length` lies inside the profile.
    func require(_ offset: Int, _ length: Int, _ what: @autoclosure () -> String) throws {
        guard offset >= 0, length >= 0, offset <= bytes.count, length <= bytes.count - offset else {
            throw ICCProfileError(.truncated, at: max(0, offset), "\(what()) needs \(length) bytes at \(offset), profile has \(bytes.count)")
        }
    }

    func uInt8(_ offset: Int) throws -> UInt8 {
        try require(offset, 1, "a byte")
        return bytes[offset]
    }

    func uInt16(_ offset: Int) throws -> UInt16 {
        try require(offset, 2, "a 16-bit number")
        return UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
    }

    func uInt32(_ offset: Int) throws -> UInt32 {
        try require(offset, 4, "a 32-bit number")
        return UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }

    /// s15Fixed16Number (ICC.1 4.6).
    func s15Fixed16(_ offset: Int) throws -> Double {
        Double(Int32(bitPattern: try uInt32(offset))) / 65536
    }

    /// A four-character signature.
    func signature(_ offset: Int) throws -> ICCSignature { ICCSignature(rawValue: try uInt32(offset)) }

    /// `n` consecutive s15Fixed16 numbers.
    func s15Fixed16Array(_ offset: Int, count n: Int) throws -> [Double] {
        try require(offset, 4 * n, "\(n) s15Fixed16 numbers")
        return try (0..<n).map { try s15Fixed16(offset + 4 * $0) }
    }
}
