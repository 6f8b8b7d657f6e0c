/// The DEFLATE alphabets as the compressor sees them (RFC 1951 3.2.5): mapping match lengths
/// and distances to symbols plus extra bits, and the fixed Huffman code lengths (3.2.6).
enum DeflaterSymbols {
    /// Literal/length alphabet size: 256 literals, end-of-block (256), lengths 257–285.
    static let literalLengthCount = 286
    /// Distance alphabet size: codes 0–29.
    static let distanceCount = 30
    /// The code-length alphabet size (RFC 1951 3.2.7): lengths 0–15 and repeats 16, 17, 18.
    static let codeLengthCount = 19
    /// End-of-block symbol.
    static let endOfBlock = 256
    /// Shortest and longest match DEFLATE can express.
    static let minMatch = 3
    static let maxMatch = DeflateConstants.maxMatch
    /// Farthest distance DEFLATE can express (32 KiB window).
    static let maxDistance = DeflateConstants.windowSize

    /// Extra bits of length symbols 257...285, indexed by `symbol - 257` (shared with the inflater).
    static let lengthExtraBits = DeflateConstants.lengthExtraBits
    /// Extra bits of distance symbols 0...29.
    static let distanceExtraBits = DeflateConstants.distanceExtraBits

    /// The length symbol of a match length 3...258, with its extra bits and their value.
    ///
    /// Lengths 3–10 map one-to-one to 257–264; after that each group of four symbols covers
    /// a power-of-two range: with `l = length - 3` and `top` its highest set bit (3...7),
    /// the symbol is `257 + 4·(top−1) + (next two bits of l)` and `top − 2` bits follow.
    /// 258 has its own symbol 285 with no extra bits. Example: length 13, l = 10 = 0b1010,
    /// top 3, symbol 257 + 8 + 1 = 266, one extra bit 0.
    @inline(__always)
    static func lengthSymbol(_ length: Int) -> (symbol: Int, extraBits: Int, extra: Int) {
        let l = length &- 3
        if l < 8 { return (257 &+ l, 0, 0) }
        if length == maxMatch { return (285, 0, 0) }
        let top = (Int.bitWidth &- 1) &- l.leadingZeroBitCount
        let extraBits = top &- 2
        return (257 &+ 4 &* (top &- 1) &+ ((l >> extraBits) & 3), extraBits, l & ((1 << extraBits) &- 1))
    }

    /// The distance symbol of a distance 1...32768, with its extra bits and their value.
    ///
    /// With `x = distance - 1`: 0–3 map to symbols 0–3; otherwise, `top` being the highest set
    /// bit of x (2...14), the symbol is `2·top + (next bit of x)` with `top − 1` extra bits.
    /// Example: distance 7, x = 6 = 0b110, top 2, symbol 5, one extra bit 0.
    @inline(__always)
    static func distanceSymbol(_ distance: Int) -> (symbol: Int, extraBits: Int, extra: Int) {
        let x = distance &- 1
        if x < 4 { return (x, 0, 0) }
        let top = (Int.bitWidth &- 1) &- x.leadingZeroBitCount
        let extraBits = top &- 1
        return (2 &* top &+ ((x >> extraBits) & 1), extraBits, x & ((1 << extraBits) &- 1))
    }

    /// Fixed literal/length code lengths (RFC 1951 3.2.6): 0–143 → 8, 144–255 → 9,
    /// 256–279 → 7, 280–287 → 8.
    static let fixedLiteralLengthLengths: [UInt8] =
        [UInt8](repeating: 8, count: 144) + [UInt8](repeating: 9, count: 112)
        + [UInt8](repeating: 7, count: 24) + [UInt8](repeating: 8, count: 8)
    /// Fixed distance code lengths: all 30 (32) codes have 5 bits.
    static let fixedDistanceLengths: [UInt8] = [UInt8](repeating: 5, count: 32)

    /// The order code-length code lengths are sent in (RFC 1951 3.2.7).
    static let codeLengthOrder: [Int] = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
}
