/// Decodes one block's share of an arithmetic-coded scan: the sequential DCT procedures of
/// T.81 F.2.4 and the progressive ones of G.2, with the statistics layout of F.1.4.4 and
/// libjpeg's handling of corrupt data (a magnitude or run that overflows stops the restart
/// interval; the caller then leaves its remaining blocks as they are).
///
/// Coefficients are truncated to 16 bits when stored, as libjpeg's JCOEF is.
enum ArithmeticBlockDecoder {
    /// A component's statistics and conditioning within a scan.
    struct Context {
        /// The DC statistics area (64 bins) of the component's DC table.
        var dcStats: UnsafeMutablePointer<UInt8>
        /// The AC statistics area (256 bins) of the component's AC table.
        var acStats: UnsafeMutablePointer<UInt8>
        /// DC magnitude categories below this are "zero" differences: (1 << L) >> 1.
        var smallLimit: Int
        /// DC magnitude categories above this are "large" differences: (1 << U) >> 1.
        var largeLimit: Int
        /// AC table's Kx: up to this zig-zag index the low-band magnitude statistics are used.
        var bandSplit: Int
        /// DC conditioning class of the last difference (0, 4, 8, 12 or 16; F.1.4.4.1.2).
        var dcContext = 0
        /// The DC prediction, kept to 16 bits as libjpeg does.
        var predictor: Int32 = 0
    }

    /// F.1.4.4.1 Decode_DC_DIFF: the next DC difference, or nil when its magnitude category
    /// overflows (corrupt data).
    @inline(__always)
    static func decodeDCDifference(_ context: inout Context, _ decoder: inout ArithmeticDecoder) -> Int32? {
        var bin = context.dcStats + context.dcContext
        if decoder.decode(bin) == 0 {
            context.dcContext = 0
            return 0
        }
        let sign = decoder.decode(bin + 1)
        bin += 2 + sign
        var m = decoder.decode(bin)
        if m != 0 {
            // Magnitude category (F.1.4.4.1.3, X1 = 20): unary, one bin per step.
            bin = context.dcStats + 20
            while decoder.decode(bin) != 0 {
                m <<= 1
                if m == 0x8000 { return nil }
                bin += 1
            }
        }
        if m < context.smallLimit {
            context.dcContext = 0
        } else if m > context.largeLimit {
            context.dcContext = 12 + sign * 4
        } else {
            context.dcContext = 4 + sign * 4
        }
        return Int32(truncatingIfNeeded: magnitudeBits(m, bins: bin + 14, sign: sign, &decoder))
    }

    /// F.1.4.4.1.4: the bits of a value below its leading one (`m`), then the sign.
    @inline(__always)
    private static func magnitudeBits(_ leading: Int, bins: UnsafeMutablePointer<UInt8>, sign: Int,
                                      _ decoder: inout ArithmeticDecoder) -> Int {
        // The bits are close to random: they are merged without branching on them.
        var value = leading
        var m = leading >> 1
        while m != 0 {
            value |= m & (0 &- decoder.decode(bins))
            m >>= 1
        }
        value += 1
        return sign != 0 ? -value : value
    }

    /// F.1.4.4.2 Decode_AC_coefficients for zig-zag band `start...end`: calls `store(k, value)`
    /// for each non-zero coefficient; returns false when a run or magnitude overflows.
    @inline(__always)
    static func decodeACBand(start: Int, end: Int, _ context: Context, fixedBin: UnsafeMutablePointer<UInt8>,
                             _ sharedDecoder: inout ArithmeticDecoder, store: (Int, Int) -> Void) -> Bool {
        // A local copy stays in registers; the caller's decoder is written back once.
        var decoder = sharedDecoder
        defer { sharedDecoder = decoder }
        let stats = context.acStats
        var k = start
        while k <= end {
            var bin = stats + 3 &* (k &- 1)
            if decoder.decode(bin) != 0 { break }     // end of block
            while decoder.decode(bin + 1) == 0 {       // a zero coefficient
                bin += 3
                k &+= 1
                if k > end { return false }
            }
            let sign = decoder.decode(fixedBin)
            bin += 2
            var m = decoder.decode(bin)
            if m != 0 && decoder.decode(bin) != 0 {
                m <<= 1
                bin = stats + (k <= context.bandSplit ? 189 : 217)
                while decoder.decode(bin) != 0 {
                    m <<= 1
                    if m == 0x8000 { return false }
                    bin += 1
                }
            }
            store(k, magnitudeBits(m, bins: bin + 14, sign: sign, &decoder))
            k &+= 1
        }
        return true
    }

    /// A sequential block (F.2.4): DC difference and 63 AC coefficients, dequantized into
    /// `block` (natural order; all zero on entry, or what an earlier scan of the component left:
    /// only DC and non-zero AC coefficients are written, as in libjpeg), `shape` widened to its ``BlockShape``.
    @inline(__always)
    static func decodeSequential(into block: UnsafeMutablePointer<Int16>, shape: UnsafeMutablePointer<UInt8>,
                                 quantization: UnsafePointer<Int32>, _ context: inout Context,
                                 fixedBin: UnsafeMutablePointer<UInt8>, _ decoder: inout ArithmeticDecoder,
                                 zigzag: UnsafePointer<UInt8>) -> Bool {
        guard let difference = decodeDCDifference(&context, &decoder) else { return false }
        context.predictor = Int32(Int16(truncatingIfNeeded: context.predictor &+ difference))
        block[0] = Int16(truncatingIfNeeded: context.predictor &* quantization[0])
        var lastIndex = 0
        defer { shape.pointee |= BlockShape.forLastIndex(lastIndex) }
        return decodeACBand(start: 1, end: 63, context, fixedBin: fixedBin, &decoder) { k, value in
            let natural = Int(zigzag[k])
            let coefficient = Int32(Int16(truncatingIfNeeded: value))
            block[natural] = Int16(truncatingIfNeeded: coefficient &* quantization[natural])
            lastIndex = k
        }
    }

    /// G.2 DC first scan: the difference added to the prediction, stored `<< shift`.
    @inline(__always)
    static func decodeDCFirst(into block: UnsafeMutablePointer<Int16>, shift: Int, _ context: inout Context,
                              _ decoder: inout ArithmeticDecoder) -> Bool {
        guard let difference = decodeDCDifference(&context, &decoder) else { return false }
        context.predictor = Int32(Int16(truncatingIfNeeded: context.predictor &+ difference))
        block[0] = Int16(truncatingIfNeeded: context.predictor &<< Int32(shift))
        return true
    }

    /// G.2 DC refinement: one bit with the fixed ½ estimate, OR-ed in at `shift`.
    @inline(__always)
    static func decodeDCRefinement(into block: UnsafeMutablePointer<Int16>, shift: Int,
                                   fixedBin: UnsafeMutablePointer<UInt8>, _ decoder: inout ArithmeticDecoder) {
        block[0] |= Int16(truncatingIfNeeded: decoder.decode(fixedBin) << shift)
    }

    /// G.2 AC first scan of band `start...end`, values stored `<< shift`; `mask` is the block's
    /// non-zero mask (bit k for zig-zag position k), kept in step.
    @inline(__always)
    static func decodeACFirst(into block: UnsafeMutablePointer<Int16>, mask: UnsafeMutablePointer<UInt64>,
                              start: Int, end: Int, shift: Int, _ context: Context,
                              fixedBin: UnsafeMutablePointer<UInt8>, _ decoder: inout ArithmeticDecoder,
                              zigzag: UnsafePointer<UInt8>) -> Bool {
        var bits = mask.pointee
        defer { mask.pointee = bits }
        return decodeACBand(start: start, end: end, context, fixedBin: fixedBin, &decoder) { k, value in
            let stored = Int16(truncatingIfNeeded: Int32(truncatingIfNeeded: value) &<< Int32(shift))
            block[Int(zigzag[k])] = stored
            let bit = UInt64(1) &<< UInt64(truncatingIfNeeded: k)
            bits = stored != 0 ? bits | bit : bits & ~bit
        }
    }

    /// G.2 AC refinement of band `start...end` at bit `shift`: a correction bit for each
    /// coefficient already non-zero, new coefficients of magnitude 1 << shift, and an
    /// end-of-block decision only past the last coefficient that was non-zero before (EOBx).
    static func decodeACRefinement(into block: UnsafeMutablePointer<Int16>, mask: UnsafeMutablePointer<UInt64>,
                                   start: Int, end: Int, shift: Int, _ context: Context,
                                   fixedBin: UnsafeMutablePointer<UInt8>, _ sharedDecoder: inout ArithmeticDecoder,
                                   zigzag: UnsafePointer<UInt8>) -> Bool {
        var decoder = sharedDecoder
        defer { sharedDecoder = decoder }
        var bits = mask.pointee
        defer { mask.pointee = bits }
        let plusOne = Int32(1) << Int32(shift), minusOne = Int32(-1) << Int32(shift)
        // EOBx: the last position in 1...end whose coefficient is non-zero (0 when none is).
        let history = bits & (UInt64.max &>> UInt64(63 - end)) & ~UInt64(1)
        let lastNonZero = history == 0 ? 0 : 63 - history.leadingZeroBitCount
        let stats = context.acStats
        var k = start
        while k <= end {
            var bin = stats + 3 &* (k &- 1)
            if k > lastNonZero && decoder.decode(bin) != 0 { break }
            while true {
                let coefficient = block + Int(zigzag[k])
                if bits & (UInt64(1) &<< UInt64(truncatingIfNeeded: k)) != 0 {
                    // Correction bit: away from zero (libjpeg adds without testing the bit).
                    let value = Int32(coefficient.pointee)
                    let step = (value < 0 ? minusOne : plusOne) & (0 &- Int32(truncatingIfNeeded: decoder.decode(bin + 2)))
                    coefficient.pointee = Int16(truncatingIfNeeded: value &+ step)
                    break
                }
                if decoder.decode(bin + 1) != 0 {
                    coefficient.pointee = Int16(truncatingIfNeeded: decoder.decode(fixedBin) != 0 ? minusOne : plusOne)
                    bits |= UInt64(1) &<< UInt64(truncatingIfNeeded: k)
                    break
                }
                bin += 3
                k &+= 1
                if k > end { return false }
            }
            k &+= 1
        }
        return true
    }
}
