import Deflate

/// A deliberately simple, slow inflater written straight from RFC 1951/1950/1952 (decoding one
/// bit at a time), independent of ``Inflater``: it checks ``Deflater`` output on its own and
/// gives a second opinion on the fixtures. Not for hostile input: it only throws on what it
/// needs to stop safely.
struct ReferenceInflater {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private let input: [UInt8]
    private var position = 0      // next byte
    private var bitBuffer = 0
    private var bitCount = 0
    private var output: [UInt8] = []

    private init(_ input: [UInt8], at start: Int) {
        self.input = input
        position = start
    }

    /// Inflates a whole zlib, gzip (every member) or raw stream; checks every checksum and that
    /// nothing follows.
    static func inflate(_ bytes: [UInt8], format: DeflateFormat) throws -> [UInt8] {
        switch format {
        case .raw:
            var r = ReferenceInflater(bytes, at: 0)
            try r.inflateBlocks()
            guard r.position == bytes.count else { throw Failure(description: "trailing data") }
            return r.output
        case .zlib:
            guard bytes.count >= 6, bytes[0] & 0x0F == 8, (Int(bytes[0]) << 8 | Int(bytes[1])) % 31 == 0,
                  bytes[1] & 0x20 == 0 else { throw Failure(description: "bad zlib header") }
            var r = ReferenceInflater(bytes, at: 2)
            try r.inflateBlocks()
            let adler = try r.bigEndian32()
            guard adler == Adler32.checksum(r.output) else { throw Failure(description: "bad Adler-32") }
            guard r.position == bytes.count else { throw Failure(description: "trailing data") }
            return r.output
        case .gzip:
            var result: [UInt8] = []
            var start = 0
            repeat {
                var r = ReferenceInflater(bytes, at: start)
                try r.skipGzipHeader()
                try r.inflateBlocks()
                let crc = try r.littleEndian32(), size = try r.littleEndian32()
                guard crc == CRC32.checksum(r.output), size == UInt32(truncatingIfNeeded: r.output.count) else {
                    throw Failure(description: "bad gzip trailer")
                }
                result += r.output
                start = r.position
            } while start < bytes.count
            return result
        }
    }

    // MARK: Bits

    private mutating func bit() throws -> Int {
        if bitCount == 0 {
            guard position < input.count else { throw Failure(description: "truncated") }
            bitBuffer = Int(input[position])
            position += 1
            bitCount = 8
        }
        let b = bitBuffer & 1
        bitBuffer >>= 1
        bitCount -= 1
        return b
    }

    private mutating func bits(_ n: Int) throws -> Int {
        var value = 0
        for i in 0..<n { value |= try bit() << i }
        return value
    }

    private mutating func byte() throws -> UInt8 {
        bitCount = 0
        guard position < input.count else { throw Failure(description: "truncated") }
        position += 1
        return input[position - 1]
    }

    private mutating func bigEndian32() throws -> UInt32 {
        var v: UInt32 = 0
        for _ in 0..<4 { v = v << 8 | UInt32(try byte()) }
        return v
    }

    private mutating func littleEndian32() throws -> UInt32 {
        var v: UInt32 = 0
        for i in 0..<4 { v |= UInt32(try byte()) << UInt32(8 * i) }
        return v
    }

    private mutating func skipGzipHeader() throws {
        guard try byte() == 0x1F, try byte() == 0x8B, try byte() == 8 else { throw Failure(description: "bad gzip header") }
        let flags = try byte()
        for _ in 0..<6 { _ = try byte() }
        if flags & 4 != 0 {
            let xlen = Int(try byte()) | Int(try byte()) << 8
            for _ in 0..<xlen { _ = try byte() }
        }
        if flags & 8 != 0 { while try byte() != 0 {} }
        if flags & 16 != 0 { while try byte() != 0 {} }
        if flags & 2 != 0 { _ = try byte(); _ = try byte() }
    }

    // MARK: Blocks (RFC 1951 3.2.3)

    /// A canonical code as counts per length and symbols in code order (decoded bit by bit).
    private struct Code {
        var counts = [Int](repeating: 0, count: 16)
        var symbols: [Int] = []

        init(lengths: [Int]) {
            for l in lengths { counts[l] += 1 }
            counts[0] = 0
            for length in 1...15 {
                for (symbol, l) in lengths.enumerated() where l == length { symbols.append(symbol) }
            }
        }
    }

    private mutating func decode(_ code: Code) throws -> Int {
        var value = 0, first = 0, index = 0
        for length in 1...15 {
            value |= try bit()
            let count = code.counts[length]
            if value - first < count { return code.symbols[index + value - first] }
            index += count
            first = (first + count) << 1
            value <<= 1
        }
        throw Failure(description: "no such code")
    }

    private static let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59,
                                     67, 83, 99, 115, 131, 163, 195, 227, 258]
    private static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4,
                                      5, 5, 5, 5, 0]
    private static let distanceBase = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385,
                                       513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
    private static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9,
                                        10, 10, 11, 11, 12, 12, 13, 13]

    private mutating func inflateBlocks() throws {
        var final = false
        repeat {
            final = try bit() == 1
            switch try bits(2) {
            case 0:
                let len = Int(try byte()) | Int(try byte()) << 8
                let nlen = Int(try byte()) | Int(try byte()) << 8
                guard len == nlen ^ 0xFFFF else { throw Failure(description: "stored length") }
                for _ in 0..<len { output.append(try byte()) }
            case 1:
                let lengths = [Int](repeating: 8, count: 144) + [Int](repeating: 9, count: 112)
                    + [Int](repeating: 7, count: 24) + [Int](repeating: 8, count: 8)
                try inflateCodes(Code(lengths: lengths), Code(lengths: [Int](repeating: 5, count: 30)))
            case 2:
                let hlit = try bits(5) + 257, hdist = try bits(5) + 1, hclen = try bits(4) + 4
                let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
                var codeLengthLengths = [Int](repeating: 0, count: 19)
                for i in 0..<hclen { codeLengthLengths[order[i]] = try bits(3) }
                let codeLengthCode = Code(lengths: codeLengthLengths)
                var lengths: [Int] = []
                while lengths.count < hlit + hdist {
                    let symbol = try decode(codeLengthCode)
                    switch symbol {
                    case 16:
                        guard let last = lengths.last else { throw Failure(description: "repeat first") }
                        lengths += [Int](repeating: last, count: 3 + (try bits(2)))
                    case 17: lengths += [Int](repeating: 0, count: 3 + (try bits(3)))
                    case 18: lengths += [Int](repeating: 0, count: 11 + (try bits(7)))
                    default: lengths.append(symbol)
                    }
                }
                guard lengths.count == hlit + hdist else { throw Failure(description: "lengths overrun") }
                try inflateCodes(Code(lengths: Array(lengths[0..<hlit])), Code(lengths: Array(lengths[hlit...])))
            default:
                throw Failure(description: "block type 3")
            }
        } while !final
    }

    private mutating func inflateCodes(_ literalLength: Code, _ distance: Code) throws {
        while true {
            let symbol = try decode(literalLength)
            if symbol < 256 {
                output.append(UInt8(symbol))
            } else if symbol == 256 {
                return
            } else {
                let index = symbol - 257
                guard index < 29 else { throw Failure(description: "bad length symbol") }
                let length = Self.lengthBase[index] + (try bits(Self.lengthExtra[index]))
                let d = try decode(distance)
                guard d < 30 else { throw Failure(description: "bad distance symbol") }
                let dist = Self.distanceBase[d] + (try bits(Self.distanceExtra[d]))
                guard dist <= output.count else { throw Failure(description: "distance too far") }
                for _ in 0..<length { output.append(output[output.count - dist]) }
            }
        }
    }
}
