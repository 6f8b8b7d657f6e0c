import Deflate

/// Packs bits LSB first (RFC 1951 3.1.1) to build valid and invalid DEFLATE streams by hand.
struct TestBitWriter {
    private(set) var bytes: [UInt8] = []
    private var accumulator: UInt64 = 0
    private var count = 0

    /// Appends the low `n` bits of `value`, least significant first (header fields, extra bits).
    mutating func bits(_ value: Int, _ n: Int) {
        for i in 0..<n {
            accumulator |= UInt64((value >> i) & 1) << UInt64(count)
            count += 1
            if count == 8 {
                bytes.append(UInt8(accumulator))
                accumulator = 0
                count = 0
            }
        }
    }

    /// Appends a Huffman code of `length` bits, most significant bit first (RFC 1951 3.1.1).
    mutating func huffman(_ code: Int, _ length: Int) {
        for i in stride(from: length - 1, through: 0, by: -1) { bits((code >> i) & 1, 1) }
    }

    /// Pads with zero bits to a byte boundary.
    mutating func align() {
        if count > 0 { bits(0, 8 - count) }
    }

    /// Appends whole bytes (aligns first).
    mutating func append(_ more: [UInt8]) {
        align()
        bytes.append(contentsOf: more)
    }

    /// A block header: BFINAL then BTYPE (0 stored, 1 fixed, 2 dynamic, 3 reserved).
    mutating func blockHeader(final: Bool, type: Int) {
        bits(final ? 1 : 0, 1)
        bits(type, 2)
    }

    /// A literal/length symbol 0...287 in the fixed code (RFC 1951 3.2.6).
    mutating func fixedLiteralLength(_ symbol: Int) {
        switch symbol {
        case ..<144: huffman(0x30 + symbol, 8)
        case ..<256: huffman(0x190 + symbol - 144, 9)
        case ..<280: huffman(symbol - 256, 7)
        default: huffman(0xC0 + symbol - 280, 8)
        }
    }

    /// A distance symbol 0...31 in the fixed code: 5 bits.
    mutating func fixedDistance(_ symbol: Int) { huffman(symbol, 5) }

    /// The finished bytes, padded to a byte boundary.
    var finished: [UInt8] {
        var copy = self
        copy.align()
        return copy.bytes
    }
}

/// Wrappers around hand-made DEFLATE data.
enum StreamWrapping {
    /// zlib (RFC 1950): header 78 9C, the data, Adler-32 of `output` big-endian.
    static func zlib(_ deflate: [UInt8], output: [UInt8]) -> [UInt8] {
        let adler = Adler32.checksum(output)
        return [0x78, 0x9C] + deflate + [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: adler >> UInt32($0)) }
    }

    /// gzip (RFC 1952) with a plain 10-byte header, the data, CRC-32 and ISIZE little-endian.
    static func gzip(_ deflate: [UInt8], output: [UInt8]) -> [UInt8] {
        let crc = CRC32.checksum(output)
        let size = UInt32(truncatingIfNeeded: output.count)
        return [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3] + deflate
            + [0, 8, 16, 24].map { UInt8(truncatingIfNeeded: crc >> UInt32($0)) }
            + [0, 8, 16, 24].map { UInt8(truncatingIfNeeded: size >> UInt32($0)) }
    }

    /// The canonical Huffman codes of `lengths` (RFC 1951 3.2.2), 0 for unused symbols.
    static func canonicalCodes(_ lengths: [Int]) -> [Int] {
        var countPerLength = [Int](repeating: 0, count: 16)
        for length in lengths where length > 0 { countPerLength[length] += 1 }
        var next = [Int](repeating: 0, count: 16)
        var code = 0
        for bits in 1...15 {
            code = (code + countPerLength[bits - 1]) << 1
            next[bits] = code
        }
        return lengths.map { length in
            guard length > 0 else { return 0 }
            defer { next[length] += 1 }
            return next[length]
        }
    }
}
