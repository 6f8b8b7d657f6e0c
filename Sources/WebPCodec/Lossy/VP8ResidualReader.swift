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

    /// Where ``VP8BoolDecoder/renormalisingShifts`` follows the probabilities in `probs` (the
    /// token loop then needs no pointer of its own for it).
    private let shiftsOffset: Int

    init(probabilities: [UInt8]) {
        let shifts = VP8BoolDecoder.renormalisingShifts
        shiftsOffset = probabilities.count
        probs = .allocate(capacity: probabilities.count + shifts.count)
        probs.initialize(from: probabilities, count: probabilities.count)
        (probs + shiftsOffset).initialize(from: shifts, count: shifts.count)
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

    /// The "non-zero" context bits of one macroblock's neighbours (libwebp's `nz` and `nz_dc`):
    /// `above` and `left` share one layout, bits 0–3 luma columns (rows), 4–5 U, 6–7 V.
    struct NonZeroContext {
        var above: UInt8
        var left: UInt8
        var aboveDC: UInt8
        var leftDC: UInt8
    }

    /// Reads all blocks of one macroblock (libwebp `ParseResiduals`) into `coefficients` (384,
    /// zeroed here: 16 luma blocks, 4 U, 4 V), updating `context`; returns libwebp's 2-bit code per
    /// block (0 empty, 1 DC only, 2 up to three coefficients, 3 more): luma block n in bits
    /// 62 − 2n, chroma block k in bits 6 − 2k (U) and 14 − 2k (V).
    ///
    /// The decoder is copied into a local for the macroblock and written back once, and every
    /// block (Y2 first, when there is one, then the 24 others) goes through the one token loop
    /// written out below: with no call taking the copy's address and no nested function
    /// capturing it, its fields stay in registers across all the bools instead of being stored
    /// after each. (The token loop as a function of its own was not inlined, `@inline(__always)`
    /// or not, and a call takes the decoder's address.)
    func readMacroblock(_ tokenReader: inout VP8BoolDecoder, _ data: UnsafePointer<UInt8>, _ received: Int,
                        quantizer: VP8Quantizer, hasY2: Bool, context: inout NonZeroContext,
                        coefficients: UnsafeMutablePointer<Int16>, dcScratch: UnsafeMutablePointer<Int16>) -> UInt64 {
        let probs = self.probs, zigzag = self.zigzag, shifts = UnsafePointer(self.probs + shiftsOffset)
        var reader = tokenReader
        defer { tokenReader = reader }
        var above = context.above, left = context.left
        coefficients.update(repeating: 0, count: 384)
        var codes: UInt64 = 0
        let lumaType = hasY2 ? BlockType.lumaAC : BlockType.lumaFull
        var block = hasY2 ? -1 : 0
        while block < 24 {
            // This block's type, quantiser, first coefficient, output and context.
            let type: BlockType, dc: Int32, ac: Int32, first: Int, out: UnsafeMutablePointer<Int16>, blockContext: Int
            var column = 0, row = 0
            if block < 0 {
                type = .y2; dc = quantizer.y2.dc; ac = quantizer.y2.ac; first = 0; out = dcScratch
                out.update(repeating: 0, count: 16)
                blockContext = Int(context.aboveDC) &+ Int(context.leftDC)
            } else {
                if block < 16 {
                    type = lumaType; dc = quantizer.y1.dc; ac = quantizer.y1.ac; first = hasY2 ? 1 : 0
                    column = block & 3; row = block >> 2
                } else {
                    let k = block & 3, channel = (block &- 16) >> 2  // 0 U, 1 V
                    type = .chroma; dc = quantizer.uv.dc; ac = quantizer.uv.ac; first = 0
                    column = 4 &+ 2 &* channel &+ (k & 1); row = 4 &+ 2 &* channel &+ (k >> 1)
                }
                out = coefficients + block &* 16
                blockContext = Int((above >> column) & 1) &+ Int((left >> row) & 1)
            }
            let starts = bandStarts + type.rawValue &* 17

            // The tokens (libwebp `GetCoeffs`): nz is the index after the last token read.
            var nz = first
            var p = starts[nz] &+ blockContext &* 11
            tokens: while nz < 16 {
                if !reader.readBool(Int(probs[p]), data, received, shifts: shifts) { break tokens }  // end of block
                while !reader.readBool(Int(probs[p &+ 1]), data, received, shifts: shifts) {          // a zero
                    nz &+= 1
                    if nz == 16 { break tokens }
                    p = starts[nz]
                }
                let value: Int
                if !reader.readBool(Int(probs[p &+ 2]), data, received, shifts: shifts) {
                    value = 1
                    p = starts[nz &+ 1] &+ 11
                } else {
                    // Values 2 and up (section 13.2: DCT_VAL2 … DCT_CAT6).
                    if !reader.readBool(Int(probs[p &+ 3]), data, received, shifts: shifts) {
                        value = !reader.readBool(Int(probs[p &+ 4]), data, received, shifts: shifts) ? 2
                            : 3 &+ reader.readBit(Int(probs[p &+ 5]), data, received, shifts: shifts)
                    } else if !reader.readBool(Int(probs[p &+ 6]), data, received, shifts: shifts) {
                        if !reader.readBool(Int(probs[p &+ 7]), data, received, shifts: shifts) {
                            value = 5 &+ reader.readBit(159, data, received, shifts: shifts)
                        } else {
                            let high = reader.readBit(165, data, received, shifts: shifts)
                            value = 7 &+ 2 &* high &+ reader.readBit(145, data, received, shifts: shifts)
                        }
                    } else {
                        let bit1 = reader.readBit(Int(probs[p &+ 8]), data, received, shifts: shifts)
                        let bit0 = reader.readBit(Int(probs[p &+ 9 &+ bit1]), data, received, shifts: shifts)
                        let (extra, after) = Self.categoryValue(reader, category: 2 &* bit1 &+ bit0, data, received)
                        reader = after
                        value = extra
                    }
                    p = starts[nz &+ 1] &+ 22
                }
                // Values stay below 2^12 and quantiser factors below 2^10, far inside Int: the
                // wrapping operators only spare the overflow checks.
                let signed = reader.readBool(128, data, received, shifts: shifts) ? 0 &- value : value
                // libwebp stores the product in 16 bits.
                out[zigzag[nz]] = Int16(truncatingIfNeeded: signed &* Int(nz > 0 ? ac : dc))
                nz &+= 1
            }

            if block < 0 {
                let flag: UInt8 = nz > 0 ? 1 : 0
                context.aboveDC = flag
                context.leftDC = flag
                // The luma blocks' DC coefficients, before their own tokens are read.
                if nz > 1 {
                    VP8Transform.inverseWHT(dcScratch, coefficients)
                } else {
                    let dc0 = Int16(truncatingIfNeeded: (Int(dcScratch[0]) &+ 3) >> 3)
                    for i in 0..<16 { coefficients[i &* 16] = dc0 }
                }
            } else {
                let flag: UInt8 = nz > first ? 1 : 0
                above = above & ~(1 << column) | flag << column
                left = left & ~(1 << row) | flag << row
                let code: UInt64 = nz > 3 ? 3 : nz > 1 ? 2 : (out[0] != 0 ? 1 : 0)
                let shift = block < 16 ? 62 &- 2 &* block : 6 &- 2 &* (block & 3) &+ 8 &* ((block &- 16) >> 2)
                codes |= code &<< UInt64(truncatingIfNeeded: shift)
            }
            block &+= 1
        }
        context.above = above
        context.left = left
        return codes
    }

    /// DCT_CAT3 … DCT_CAT6 (`category` 0–3, values 11 and up, rare): the extra bits at their fixed
    /// probabilities. The decoder goes in and out by value, so its caller's copy stays private.
    @inline(never)
    private static func categoryValue(_ reader: VP8BoolDecoder, category: Int, _ data: UnsafePointer<UInt8>,
                                      _ received: Int) -> (value: Int, reader: VP8BoolDecoder) {
        var reader = reader
        var v = 0
        for probability in VP8Tables.categoryProbabilities[category] {
            v += v + (reader.readBool(Int(probability), data, received) ? 1 : 0)
        }
        return (v + 3 + (8 << category), reader)
    }
}
