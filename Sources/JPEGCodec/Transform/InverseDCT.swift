/// The accurate integer inverse DCT of libjpeg's `jpeg_idct_islow` (jidctint.c): the
/// Loeffler–Ligtenberg–Moschytz factorisation with 13-bit fixed-point constants and two extra
/// bits of precision between the column and the row pass.
///
/// Input blocks are dequantized (coefficient × quantizer, natural order). The arithmetic is that of
/// libjpeg-turbo's SIMD version (jidctint-sse2/avx2.asm), which djpeg runs on x86-64, including
/// where it differs from the C code for out-of-range values that only corrupt data produces:
/// - inputs are taken modulo 2^16 (its 16-bit dequantizing multiply);
/// - sums that feed a multiply in pairs (x0 ± x4, x7 + x3, x5 + x1) wrap to 16 bits, while the
///   other products are formed exactly (a multiply-add of two 16-bit values, so z1 = x2 + x6 and
///   z5 = z3 + z4 are never formed on their own);
/// - each pass's results saturate to 16 bits, and the samples to −128...127 before +128;
/// - a block whose rows 1...7 are all zero skips the first pass: its column values are the row-0
///   inputs shifted left by 2 in 16 bits (wrapping, not saturating).
/// With 16-bit inputs no 32-bit intermediate overflows (the largest output is below
/// 32768 · 64570 < 2^31), so the wrapping operators below never actually wrap.
enum InverseDCT {
    /// Fixed-point bits of the constants (CONST_BITS).
    static let constantBits: Int32 = 13
    /// Extra precision kept between the passes (PASS1_BITS).
    static let pass1Bits: Int32 = 2

    // FIX(x) = round(x · 2^13).
    static let fix0_298631336: Int32 = 2446
    static let fix0_390180644: Int32 = 3196
    static let fix0_541196100: Int32 = 4433
    static let fix0_765366865: Int32 = 6270
    static let fix0_899976223: Int32 = 7373
    static let fix1_175875602: Int32 = 9633
    static let fix1_501321110: Int32 = 12299
    static let fix1_847759065: Int32 = 15137
    static let fix1_961570560: Int32 = 16069
    static let fix2_053119869: Int32 = 16819
    static let fix2_562915447: Int32 = 20995
    static let fix3_072711026: Int32 = 25172

    /// Four lanes of 32-bit values (``TriangleInverseDCT``; the scalar twin runs its butterfly on lane 0).
    typealias Lanes = SIMD4<Int32>

    /// Transforms one block into 8×8 samples at `output`, rows `stride` apart, with
    /// ``EightLaneInverseDCT`` (a whole row of the block per vector); the result is exactly that of
    /// ``transform8x8Scalar(_:workspace:output:stride:)``, and `workspace` is only used by the rare
    /// blocks that take the scalar path.
    @inline(__always)
    static func transform8x8(_ coefficients: UnsafePointer<Int32>, workspace: UnsafeMutablePointer<Int32>,
                             output: UnsafeMutablePointer<UInt8>, stride: Int) {
        EightLaneInverseDCT.transform(coefficients, workspace: workspace, output: output, stride: stride)
    }

    /// ``transform8x8(_:workspace:output:stride:)`` for a ``BlockShape/topLeft4x4`` block: rows and
    /// columns 4...7 of the input are zero, so the zero terms fold away; the result is identical.
    @inline(__always)
    static func transform8x8TopLeft(_ coefficients: UnsafePointer<Int32>, workspace: UnsafeMutablePointer<Int32>,
                                    output: UnsafeMutablePointer<UInt8>, stride: Int) {
        EightLaneInverseDCT.transform(coefficients, workspace: workspace, output: output, stride: stride, topLeftOnly: true)
    }

    /// A first-pass output kept with `pass1Bits` extra bits (not yet saturated).
    @inline(__always)
    static func columnResult(_ v: Lanes) -> Lanes {
        let shift = constantBits - pass1Bits
        return (v &+ (1 &<< (shift - 1))) &>> shift
    }

    /// Second-pass outputs as samples: lane k of the result holds, in bytes 0...3, lane k of
    /// `r0`...`r3` descaled by 18 bits, +128, clamped to 0...255 (libjpeg-turbo saturates to
    /// −128...127 before adding 128: the same). The +128 joins the rounding bias, which cannot
    /// overflow for the vector path's inputs (|v| ≤ 64570 · 2^14 < 2^30).
    ///
    /// Each descaled value fits in 16 bits, so two share a 32-bit lane and are clamped with
    /// 16-bit min/max: fewer steps than clamping 32-bit lanes one by one.
    @inline(__always)
    static func samples(_ r0: Lanes, _ r1: Lanes, _ r2: Lanes, _ r3: Lanes) -> Lanes {
        let shift = constantBits + pass1Bits + 3
        let bias = Lanes(repeating: (1 &<< (shift - 1)) &+ (128 &<< shift))
        @inline(__always) func clampedPair(_ a: Lanes, _ b: Lanes) -> Lanes {
            let pair = ((a &+ bias) &>> shift) & 0xFFFF | ((b &+ bias) &>> shift) &<< 16
            // Comparisons with vector operands and `replacing(with:where:)`, not `.clamped`:
            // on Linux that one is an out-of-line lane loop (pointwiseMin/Max calls).
            let values = unsafeBitCast(pair, to: SIMD8<Int16>.self)
            let low = SIMD8<Int16>(repeating: 0), high = SIMD8<Int16>(repeating: 255)
            let clamped = values.replacing(with: low, where: values .< low).replacing(with: high, where: values .> high)
            return unsafeBitCast(clamped, to: Lanes.self)
        }
        // Bits 0...7 and 16...23 hold the two samples; move the second down to bits 8...15.
        let first = clampedPair(r0, r1), second = clampedPair(r2, r3)
        return (first | first &>> 8) & 0xFFFF | (second | second &>> 8) &<< 16
    }

    /// One value at a time, following libjpeg-turbo's SIMD code step by step (including its
    /// shortcut for a block whose rows 1...7 are zero): the careful twin of
    /// ``transform8x8(_:workspace:output:stride:)`` (and of ``TriangleInverseDCT``) and their path
    /// for blocks whose first-pass values do not fit in 16 bits.
    @inline(never)
    static func transform8x8Scalar(_ coefficients: UnsafePointer<Int32>, workspace: UnsafeMutablePointer<Int32>,
                                   output: UnsafeMutablePointer<UInt8>, stride: Int) {
        @inline(__always) func input(_ index: Int) -> Int32 { Int32(Int16(truncatingIfNeeded: coefficients[index])) }
        var rowsBelowZero = true
        for index in 8..<64 where input(index) != 0 { rowsBelowZero = false }
        for column in 0..<8 {
            let w = workspace + column
            if rowsBelowZero {
                let value = Int32(Int16(truncatingIfNeeded: input(column) &<< pass1Bits))
                for row in 0..<8 { w[row * 8] = value }
                continue
            }
            let r = butterfly(input(column), input(column + 8), input(column + 16), input(column + 24),
                              input(column + 32), input(column + 40), input(column + 48), input(column + 56))
            // libjpeg-turbo packs the first pass's results into 16 bits with saturation.
            w[0] = saturate16(columnResult(r.0)); w[8] = saturate16(columnResult(r.1))
            w[16] = saturate16(columnResult(r.2)); w[24] = saturate16(columnResult(r.3))
            w[32] = saturate16(columnResult(r.4)); w[40] = saturate16(columnResult(r.5))
            w[48] = saturate16(columnResult(r.6)); w[56] = saturate16(columnResult(r.7))
        }
        for row in 0..<8 {
            let w = workspace + row * 8, out = output + row * stride
            let r = butterfly(w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7])
            out[0] = sample(r.0); out[1] = sample(r.1); out[2] = sample(r.2); out[3] = sample(r.3)
            out[4] = sample(r.4); out[5] = sample(r.5); out[6] = sample(r.6); out[7] = sample(r.7)
        }
    }

    /// The flat block that a block with only a DC term gives: the skipped first pass leaves
    /// (dc << 2) wrapped to 16 bits, which the second pass descales by 5 bits. For |dc| < 8192
    /// this is just dc / 8 rounded, clamped.
    @inline(__always)
    static func flatSample(dc: Int32) -> UInt8 {
        let columnValue = Int32(Int16(truncatingIfNeeded: dc &<< pass1Bits))
        return sample(columnValue &<< constantBits)
    }

    /// `v` reduced to its low 16 bits, sign-extended (libjpeg-turbo's 16-bit lanes). Besides
    /// matching it, saying so lets the compiler multiply with 16 × 16 → 32-bit instructions
    /// instead of emulating a 32-bit multiply.
    @inline(__always)
    static func narrow(_ v: Lanes) -> Lanes { (v &<< 16) &>> 16 }

    /// `v` saturated to −32768...32767 (libjpeg-turbo packs each pass's results with saturation).
    @inline(__always)
    static func saturate16(_ v: Int32) -> Int32 { Int32(Int16(clamping: v)) }

    /// One 8-point 1-D IDCT (LL&M, jidctint.c figure 8) on four lanes of 16-bit values, outputs
    /// scaled by 2^constantBits, in libjpeg-turbo's SIMD arrangement: each product pair is one
    /// multiply-add of two 16-bit values, and only x0 ± x4, x7 + x3 and x5 + x1 are 16-bit sums.
    @inline(__always)
    static func butterfly(_ x0: Lanes, _ x1: Lanes, _ x2: Lanes, _ x3: Lanes, _ x4: Lanes, _ x5: Lanes, _ x6: Lanes, _ x7: Lanes)
        -> (Lanes, Lanes, Lanes, Lanes, Lanes, Lanes, Lanes, Lanes) {
        // The inputs are 16-bit already; narrowing again tells the compiler so (values that went
        // through a transpose lose that knowledge), which lets it use 16-bit multiplies.
        let x1 = narrow(x1), x2 = narrow(x2), x3 = narrow(x3), x5 = narrow(x5), x6 = narrow(x6), x7 = narrow(x7)
        // Even part: z1 = (x2 + x6) · c6√2 distributed over x2 and x6.
        let tmp3 = x2 &* (fix0_541196100 + fix0_765366865) &+ x6 &* fix0_541196100
        let tmp2 = x2 &* fix0_541196100 &+ x6 &* (fix0_541196100 - fix1_847759065)
        // (x0 ± x4) wrapped to 16 bits, times 2^13: placed in the high half and shifted down by 3.
        let tmp0 = ((x0 &+ x4) &<< 16) &>> (16 - constantBits)
        let tmp1 = ((x0 &- x4) &<< 16) &>> (16 - constantBits)
        let tmp10 = tmp0 &+ tmp3, tmp13 = tmp0 &- tmp3
        let tmp11 = tmp1 &+ tmp2, tmp12 = tmp1 &- tmp2
        // Odd part: z5 = (z3 + z4) · 1.175875602 distributed over z3 and z4.
        let z3 = narrow(x7 &+ x3), z4 = narrow(x5 &+ x1)
        let m3 = z3 &* (fix1_175875602 - fix1_961570560) &+ z4 &* fix1_175875602
        let m4 = z3 &* fix1_175875602 &+ z4 &* (fix1_175875602 - fix0_390180644)
        // z1 = x7 + x1 and z2 = x5 + x3 distributed likewise.
        let t0 = x7 &* (fix0_298631336 - fix0_899976223) &+ x1 &* -fix0_899976223 &+ m3
        let t1 = x5 &* (fix2_053119869 - fix2_562915447) &+ x3 &* -fix2_562915447 &+ m4
        let t2 = x5 &* -fix2_562915447 &+ x3 &* (fix3_072711026 - fix2_562915447) &+ m3
        let t3 = x7 &* -fix0_899976223 &+ x1 &* (fix1_501321110 - fix0_899976223) &+ m4
        return (tmp10 &+ t3, tmp11 &+ t2, tmp12 &+ t1, tmp13 &+ t0,
                tmp13 &- t0, tmp12 &- t1, tmp11 &- t2, tmp10 &- t3)
    }

    /// The butterfly on single values (lane 0 of the vector one), for the scalar twin.
    @inline(__always)
    static func butterfly(_ x0: Int32, _ x1: Int32, _ x2: Int32, _ x3: Int32, _ x4: Int32, _ x5: Int32, _ x6: Int32, _ x7: Int32)
        -> (Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32) {
        let r = butterfly(Lanes(repeating: x0), Lanes(repeating: x1), Lanes(repeating: x2), Lanes(repeating: x3),
                          Lanes(repeating: x4), Lanes(repeating: x5), Lanes(repeating: x6), Lanes(repeating: x7))
        return (r.0[0], r.1[0], r.2[0], r.3[0], r.4[0], r.5[0], r.6[0], r.7[0])
    }

    /// ``columnResult(_:)`` on one value.
    @inline(__always)
    static func columnResult(_ v: Int32) -> Int32 { columnResult(Lanes(repeating: v))[0] }

    /// A second-pass output as a sample, exactly as libjpeg-turbo forms it for any 32-bit value:
    /// descaled by 18 bits, saturated to −128...127, +128.
    @inline(__always)
    static func sample(_ v: Int32) -> UInt8 {
        let shift = constantBits + pass1Bits + 3
        let descaled = (v &+ (1 &<< (shift - 1))) &>> shift
        return UInt8(truncatingIfNeeded: min(max(descaled, -128), 127) &+ 128)
    }
}
