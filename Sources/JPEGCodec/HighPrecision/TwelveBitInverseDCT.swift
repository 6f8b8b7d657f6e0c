/// The inverse DCTs of libjpeg-turbo's 12-bit build (jidctint.c `jpeg_idct_islow` and jidctred.c
/// `jpeg_idct_4x4`, `_2x2`, `_1x1`, compiled with BITS_IN_JSAMPLE 12), which has no SIMD code.
///
/// They differ from the 8-bit ones in three ways: PASS1_BITS is 1 rather than 2, products are
/// 64-bit (dequantized 12-bit coefficients reach ±2^15 and quantizers 2^16, so 32-bit sums would
/// overflow), and quantizers are not cut to 16 bits. The first pass keeps its results in a C
/// `int` (32 bits, wrapped here the same way), and each sample goes through libjpeg's range-limit
/// table: the low 14 bits of the descaled value, read as −8192...8191, + 2048, clamped to 0...4095.
///
/// libjpeg-turbo's shortcuts for zero columns and rows give exactly the full computation's result
/// with 64-bit products; the 8×8 transform takes them for speed, the reduced ones compute in full.
/// The 8×8 transform first offers the block to ``TwelveBitLaneInverseDCT`` (32-bit lanes, exact
/// for the blocks it takes); this scalar code is its twin and takes the blocks it declines.
enum TwelveBitInverseDCT {
    static let constantBits: Int64 = 13
    static let pass1Bits: Int64 = 1
    /// The largest sample, MAXJSAMPLE.
    static let maxSample: Int64 = 4095

    /// One 12-bit sample from a descaled, centred value (libjpeg's `range_limit[x & RANGE_MASK]`).
    @inline(__always)
    static func rangeLimit(_ value: Int64) -> UInt16 {
        let wrapped = ((value &+ 8192) & 16383) &- 8192
        return UInt16(truncatingIfNeeded: min(max(wrapped &+ 2048, 0), maxSample))
    }

    /// DESCALE: divide by 2^shift rounding half up (arithmetic shift, as RIGHT_SHIFT).
    @inline(__always)
    static func descale(_ value: Int64, _ shift: Int64) -> Int64 {
        (value &+ (1 &<< (shift &- 1))) &>> shift
    }

    /// A first-pass result stored in a C `int`.
    @inline(__always)
    static func asInt(_ value: Int64) -> Int64 { Int64(Int32(truncatingIfNeeded: value)) }

    /// Transforms the raw coefficients `block` (natural order), dequantized by `quantizers`
    /// (natural order, up to 65535), into `size`×`size` samples at `output`, rows `stride` apart.
    /// `workspace` holds 64 values.
    static func transform(_ block: UnsafePointer<Int16>, quantizers: UnsafePointer<Int32>, size: Int,
                          workspace: UnsafeMutablePointer<Int64>, output: UnsafeMutablePointer<UInt16>, stride: Int) {
        switch size {
        case 8:
            if TwelveBitLaneInverseDCT.transform(block, quantizers: quantizers, scratch: UnsafeMutableRawPointer(workspace),
                                                 output: output, stride: stride) { return }
            transform8x8(block, quantizers: quantizers, workspace: workspace, output: output, stride: stride)
        case 4: transform4x4(block, quantizers: quantizers, workspace: workspace, output: output, stride: stride)
        case 2: transform2x2(block, quantizers: quantizers, workspace: workspace, output: output, stride: stride)
        default: output[0] = rangeLimit(descale(Int64(block[0]) &* Int64(quantizers[0]), 3))
        }
    }

    /// The LL&M 8-point step of jidctint.c on 64-bit values; outputs scaled by 2^constantBits.
    @inline(__always)
    private static func step8(_ x0: Int64, _ x1: Int64, _ x2: Int64, _ x3: Int64, _ x4: Int64, _ x5: Int64, _ x6: Int64,
                              _ x7: Int64) -> (Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64) {
        let z1 = (x2 &+ x6) &* Int64(InverseDCT.fix0_541196100)
        let tmp2 = z1 &+ x6 &* -Int64(InverseDCT.fix1_847759065)
        let tmp3 = z1 &+ x2 &* Int64(InverseDCT.fix0_765366865)
        let tmp0 = (x0 &+ x4) &<< constantBits, tmp1 = (x0 &- x4) &<< constantBits
        let tmp10 = tmp0 &+ tmp3, tmp13 = tmp0 &- tmp3, tmp11 = tmp1 &+ tmp2, tmp12 = tmp1 &- tmp2
        // Odd part: inputs 7, 5, 3, 1.
        let a = x7, b = x5, c = x3, d = x1
        let z5 = (a &+ c &+ b &+ d) &* Int64(InverseDCT.fix1_175875602)
        let za = (a &+ d) &* -Int64(InverseDCT.fix0_899976223)
        let zb = (b &+ c) &* -Int64(InverseDCT.fix2_562915447)
        let zc = (a &+ c) &* -Int64(InverseDCT.fix1_961570560) &+ z5
        let zd = (b &+ d) &* -Int64(InverseDCT.fix0_390180644) &+ z5
        let o0 = a &* Int64(InverseDCT.fix0_298631336) &+ za &+ zc
        let o1 = b &* Int64(InverseDCT.fix2_053119869) &+ zb &+ zd
        let o2 = c &* Int64(InverseDCT.fix3_072711026) &+ zb &+ zc
        let o3 = d &* Int64(InverseDCT.fix1_501321110) &+ za &+ zd
        return (tmp10 &+ o3, tmp11 &+ o2, tmp12 &+ o1, tmp13 &+ o0, tmp13 &- o0, tmp12 &- o1, tmp11 &- o2, tmp10 &- o3)
    }

    /// The 64-bit scalar 8×8 transform, the twin of ``TwelveBitLaneInverseDCT``.
    static func transform8x8(_ block: UnsafePointer<Int16>, quantizers q: UnsafePointer<Int32>,
                                     workspace: UnsafeMutablePointer<Int64>, output: UnsafeMutablePointer<UInt16>, stride: Int) {
        for column in 0..<8 {
            @inline(__always) func x(_ row: Int) -> Int64 { Int64(block[row * 8 + column]) &* Int64(q[row * 8 + column]) }
            let w = workspace + column
            if block[8 + column] == 0 && block[16 + column] == 0 && block[24 + column] == 0 && block[32 + column] == 0
                && block[40 + column] == 0 && block[48 + column] == 0 && block[56 + column] == 0 {
                // The full pass gives exactly this (libjpeg's shortcut): DESCALE(x0 << 13, 12) = x0 << 1.
                let value = asInt(x(0) &<< pass1Bits)
                for row in 0..<8 { w[row * 8] = value }
                continue
            }
            let r = step8(x(0), x(1), x(2), x(3), x(4), x(5), x(6), x(7))
            let shift = constantBits - pass1Bits
            w[0] = asInt(descale(r.0, shift)); w[8] = asInt(descale(r.1, shift))
            w[16] = asInt(descale(r.2, shift)); w[24] = asInt(descale(r.3, shift))
            w[32] = asInt(descale(r.4, shift)); w[40] = asInt(descale(r.5, shift))
            w[48] = asInt(descale(r.6, shift)); w[56] = asInt(descale(r.7, shift))
        }
        let shift = constantBits + pass1Bits + 3
        for row in 0..<8 {
            let w = workspace + row * 8, out = output + row * stride
            if w[1] == 0 && w[2] == 0 && w[3] == 0 && w[4] == 0 && w[5] == 0 && w[6] == 0 && w[7] == 0 {
                // Exactly the full pass's result: DESCALE(w0 << 13, 17) = DESCALE(w0, 4).
                let value = rangeLimit(descale(w[0], pass1Bits + 3))
                for x in 0..<8 { out[x] = value }
                continue
            }
            let r = step8(w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7])
            out[0] = rangeLimit(descale(r.0, shift)); out[1] = rangeLimit(descale(r.1, shift))
            out[2] = rangeLimit(descale(r.2, shift)); out[3] = rangeLimit(descale(r.3, shift))
            out[4] = rangeLimit(descale(r.4, shift)); out[5] = rangeLimit(descale(r.5, shift))
            out[6] = rangeLimit(descale(r.6, shift)); out[7] = rangeLimit(descale(r.7, shift))
        }
    }

    /// jidctred.c's 8-to-4 step (input 4 unused); outputs scaled by 2^(constantBits + 1).
    @inline(__always)
    private static func step4(_ x0: Int64, _ x1: Int64, _ x2: Int64, _ x3: Int64, _ x5: Int64, _ x6: Int64,
                              _ x7: Int64) -> (Int64, Int64, Int64, Int64) {
        let tmp0 = x0 &<< (constantBits + 1)
        let tmp2 = x2 &* Int64(InverseDCT.fix1_847759065) &+ x6 &* -Int64(InverseDCT.fix0_765366865)
        let tmp10 = tmp0 &+ tmp2, tmp12 = tmp0 &- tmp2
        let odd0 = x7 &* -Int64(ReducedInverseDCT.fix0_211164243) &+ x5 &* Int64(ReducedInverseDCT.fix1_451774981)
            &+ x3 &* -Int64(ReducedInverseDCT.fix2_172734803) &+ x1 &* Int64(ReducedInverseDCT.fix1_061594337)
        let odd2 = x7 &* -Int64(ReducedInverseDCT.fix0_509795579) &+ x5 &* -Int64(ReducedInverseDCT.fix0_601344887)
            &+ x3 &* Int64(InverseDCT.fix0_899976223) &+ x1 &* Int64(InverseDCT.fix2_562915447)
        return (tmp10 &+ odd2, tmp12 &+ odd0, tmp12 &- odd0, tmp10 &- odd2)
    }

    private static func transform4x4(_ block: UnsafePointer<Int16>, quantizers q: UnsafePointer<Int32>,
                                     workspace: UnsafeMutablePointer<Int64>, output: UnsafeMutablePointer<UInt16>, stride: Int) {
        for column in 0..<8 where column != 4 {
            @inline(__always) func x(_ row: Int) -> Int64 { Int64(block[row * 8 + column]) &* Int64(q[row * 8 + column]) }
            let r = step4(x(0), x(1), x(2), x(3), x(5), x(6), x(7))
            let shift = constantBits - pass1Bits + 1
            let w = workspace + column
            w[0] = asInt(descale(r.0, shift)); w[8] = asInt(descale(r.1, shift))
            w[16] = asInt(descale(r.2, shift)); w[24] = asInt(descale(r.3, shift))
        }
        let shift = constantBits + pass1Bits + 3 + 1
        for row in 0..<4 {
            let w = workspace + row * 8, out = output + row * stride
            let r = step4(w[0], w[1], w[2], w[3], w[5], w[6], w[7])
            out[0] = rangeLimit(descale(r.0, shift)); out[1] = rangeLimit(descale(r.1, shift))
            out[2] = rangeLimit(descale(r.2, shift)); out[3] = rangeLimit(descale(r.3, shift))
        }
    }

    /// jidctred.c's 8-to-2 step (only inputs 0, 1, 3, 5, 7); outputs scaled by 2^(constantBits + 2).
    @inline(__always)
    private static func step2(_ x0: Int64, _ x1: Int64, _ x3: Int64, _ x5: Int64, _ x7: Int64) -> (Int64, Int64) {
        let tmp10 = x0 &<< (constantBits + 2)
        let tmp0 = x7 &* -Int64(ReducedInverseDCT.fix0_720959822) &+ x5 &* Int64(ReducedInverseDCT.fix0_850430095)
            &+ x3 &* -Int64(ReducedInverseDCT.fix1_272758580) &+ x1 &* Int64(ReducedInverseDCT.fix3_624509785)
        return (tmp10 &+ tmp0, tmp10 &- tmp0)
    }

    private static func transform2x2(_ block: UnsafePointer<Int16>, quantizers q: UnsafePointer<Int32>,
                                     workspace: UnsafeMutablePointer<Int64>, output: UnsafeMutablePointer<UInt16>, stride: Int) {
        for column in 0..<8 where column == 0 || column & 1 == 1 {
            @inline(__always) func x(_ row: Int) -> Int64 { Int64(block[row * 8 + column]) &* Int64(q[row * 8 + column]) }
            let r = step2(x(0), x(1), x(3), x(5), x(7))
            let shift = constantBits - pass1Bits + 2
            workspace[column] = asInt(descale(r.0, shift)); workspace[8 + column] = asInt(descale(r.1, shift))
        }
        let shift = constantBits + pass1Bits + 3 + 2
        for row in 0..<2 {
            let w = workspace + row * 8, out = output + row * stride
            let r = step2(w[0], w[1], w[3], w[5], w[7])
            out[0] = rangeLimit(descale(r.0, shift)); out[1] = rangeLimit(descale(r.1, shift))
        }
    }
}
