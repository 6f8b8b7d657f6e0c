/// Reads the DCT tokens of one macroblock (RFC 6386 section 13, libwebp's `GetCoeffs` and
/// `ParseResiduals`): dequantised coefficients in zig-zag order, and the "non-zero" context
/// bits the next blocks depend on.
final class VP8ResidualReader {
    /// Coefficient probabilities of the frame, `((type * 8 + band) * 3 + context) * 11 + node`,
    /// with the tables the token loop reads, in memory owned here (no array checks in the loop).
    private let probs: UnsafeMutablePointer<UInt8>
    /// Where the probabilities of coefficient `n` start in `probs`, for each block type:
    /// `bandStarts[type * 17 + n]` (n = 16 is a sentinel), the band lookup and the index
    /// arithmetic done once here rather than per token (libwebp's `bands_ptr_`).
    private let bandStarts: UnsafeMutablePointer<Int>
    private let zigzag: UnsafeMutablePointer<Int>

    init(probabilities: [UInt8]) {
        probs = .allocate(capacity: probabilities.count)
        probs.initialize(from: probabilities, count: probabilities.count)
        bandStarts = .allocate(capacity: 4 * 17)
        for type in 0..<4 {
            for n in 0...16 { (bandStarts + type * 17 + n).initialize(to: Self.base(type, VP8Tables.bands[n], 0)) }
        }
        zigzag = .allocate(capacity: 16)
        zigzag.initialize(from: VP8Tables.zigzag, count: 16)
    }

    deinit {
        probs.deallocate()
        bandStarts.deallocate()
        zigzag.deallocate()
    }

    /// Block types of section 13.3: 0 luma AC after Y2, 1 Y2, 2 chroma, 3 luma with DC.
    enum BlockType: Int { case lumaAC = 0, y2 = 1, chroma = 2, lumaFull = 3 }

    /// Probability set (type, band, context) in `probs`: 11 nodes each.
    private static func base(_ type: Int, _ band: Int, _ context: Int) -> Int { ((type * 8 + band) * 3 + context) * 11 }

    /// Reads one block's tokens from coefficient `first` on; returns libwebp's `nz`: the index
    /// after the last token read (16 when the block ran to its end).
    func readBlock(_ reader: inout VP8BoolDecoder, _ data: UnsafePointer<UInt8>, _ received: Int, type: BlockType,
                   context: Int, dc: Int32, ac: Int32, first: Int, out: UnsafeMutablePointer<Int16>) -> Int {
        let probs = self.probs, zigzag = self.zigzag
        let starts = bandStarts + type.rawValue &* 17
        do {
            var n = first
            var p = starts[n] &+ context &* 11
            while n < 16 {
                if !reader.readBool(Int(probs[p]), data, received) { return n }  // end of block
                while !reader.readBool(Int(probs[p &+ 1]), data, received) {      // a zero
                    n &+= 1
                    if n == 16 { return 16 }
                    p = starts[n]
                }
                let value: Int
                if !reader.readBool(Int(probs[p &+ 2]), data, received) {
                    value = 1
                    p = starts[n &+ 1] &+ 11
                } else {
                    value = largeValue(&reader, data, received, probs, p)
                    p = starts[n &+ 1] &+ 22
                }
                // Values stay below 2^12 and quantiser factors below 2^10, far inside Int: the
                // wrapping operators only spare the overflow checks.
                let signed = reader.readBool(128, data, received) ? 0 &- value : value
                // libwebp stores the product in 16 bits.
                out[zigzag[n]] = Int16(truncatingIfNeeded: signed &* Int(n > 0 ? ac : dc))
                n &+= 1
            }
            return 16
        }
    }

    /// Token values 2 and up (section 13.2: DCT_VAL2 … DCT_CAT6 with their extra bits).
    private func largeValue(_ reader: inout VP8BoolDecoder, _ data: UnsafePointer<UInt8>, _ received: Int,
                            _ probs: UnsafeMutablePointer<UInt8>, _ p: Int) -> Int {
        @inline(__always) func bit(_ probability: Int) -> Int { reader.readBool(probability, data, received) ? 1 : 0 }
        if bit(Int(probs[p + 3])) == 0 {
            return bit(Int(probs[p + 4])) == 0 ? 2 : 3 + bit(Int(probs[p + 5]))
        }
        if bit(Int(probs[p + 6])) == 0 {
            if bit(Int(probs[p + 7])) == 0 { return 5 + bit(159) }
            var v = 7 + 2 * bit(165)
            v += bit(145)
            return v
        }
        let bit1 = bit(Int(probs[p + 8]))
        let bit0 = bit(Int(probs[p + 9 + bit1]))
        let category = 2 * bit1 + bit0
        var v = 0
        for probability in VP8Tables.categoryProbabilities[category] { v += v + bit(Int(probability)) }
        return v + 3 + (8 << category)
    }
}
