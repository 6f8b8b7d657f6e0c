/// The reduced-size inverse DCTs of libjpeg's jidctred.c, used for DCT-domain scaling: each
/// 8-point step is replaced by one that yields the averages of 2 (4×4 output) or 4 (2×2 output)
/// neighbouring outputs of the LL&M IDCT; 1×1 is the DC term / 8. Same fixed point as ``InverseDCT``,
/// same dequantized input.
enum ReducedInverseDCT {
    // FIX(x) = round(x · 2^13) for the 8-to-4 and 8-to-2 steps (four more are ``InverseDCT``'s).
    static let fix0_211164243: Int32 = 1730
    static let fix0_509795579: Int32 = 4176
    static let fix0_601344887: Int32 = 4926
    static let fix0_720959822: Int32 = 5906
    static let fix0_850430095: Int32 = 6967
    static let fix1_061594337: Int32 = 8697
    static let fix1_272758580: Int32 = 10426
    static let fix1_451774981: Int32 = 11893
    static let fix2_172734803: Int32 = 17799
    static let fix3_624509785: Int32 = 29692
    private static let fix0_765366865 = InverseDCT.fix0_765366865
    private static let fix0_899976223 = InverseDCT.fix0_899976223
    private static let fix1_847759065 = InverseDCT.fix1_847759065
    private static let fix2_562915447 = InverseDCT.fix2_562915447

    private static let constantBits = InverseDCT.constantBits
    private static let pass1Bits = InverseDCT.pass1Bits

    /// 8-to-4 step: returns the 4 outputs scaled by 2^(constantBits + 1). Input 4 is not used.
    @inline(__always)
    private static func step4(_ x0: Int32, _ x1: Int32, _ x2: Int32, _ x3: Int32,
                              _ x5: Int32, _ x6: Int32, _ x7: Int32) -> (Int32, Int32, Int32, Int32) {
        let tmp0 = x0 &<< (constantBits + 1)
        let tmp2 = x2 &* fix1_847759065 &+ x6 &* -fix0_765366865
        let tmp10 = tmp0 &+ tmp2, tmp12 = tmp0 &- tmp2
        let odd0 = x7 &* -fix0_211164243 &+ x5 &* fix1_451774981 &+ x3 &* -fix2_172734803 &+ x1 &* fix1_061594337
        let odd2 = x7 &* -fix0_509795579 &+ x5 &* -fix0_601344887 &+ x3 &* fix0_899976223 &+ x1 &* fix2_562915447
        return (tmp10 &+ odd2, tmp12 &+ odd0, tmp12 &- odd0, tmp10 &- odd2)
    }

    /// 8-to-2 step: returns the 2 outputs scaled by 2^(constantBits + 2). Even inputs but 0 are not used.
    @inline(__always)
    private static func step2(_ x0: Int32, _ x1: Int32, _ x3: Int32, _ x5: Int32, _ x7: Int32) -> (Int32, Int32) {
        let tmp10 = x0 &<< (constantBits + 2)
        let tmp0 = x7 &* -fix0_720959822 &+ x5 &* fix0_850430095 &+ x3 &* -fix1_272758580 &+ x1 &* fix3_624509785
        return (tmp10 &+ tmp0, tmp10 &- tmp0)
    }

    /// One block into 4×4 samples (jpeg_idct_4x4). `workspace` holds 32 values.
    @inline(__always)
    static func transform4x4(_ coefficients: UnsafePointer<Int32>, workspace: UnsafeMutablePointer<Int32>,
                             output: UnsafeMutablePointer<UInt8>, stride: Int) {
        for column in 0..<8 where column != 4 {
            let c = coefficients + column, w = workspace + column
            @inline(__always) func input(_ row: Int) -> Int32 { c[row * 8] }
            if c[8] == 0 && c[16] == 0 && c[24] == 0 && c[40] == 0 && c[48] == 0 && c[56] == 0 {
                let dc = input(0) &<< pass1Bits
                w[0] = dc; w[8] = dc; w[16] = dc; w[24] = dc
                continue
            }
            let r = step4(input(0), input(1), input(2), input(3), input(5), input(6), input(7))
            let shift = constantBits - pass1Bits + 1
            w[0] = descale(r.0, shift); w[8] = descale(r.1, shift)
            w[16] = descale(r.2, shift); w[24] = descale(r.3, shift)
        }
        let shift = constantBits + pass1Bits + 3 + 1
        for row in 0..<4 {
            let w = workspace + row * 8, out = output + row * stride
            if w[1] == 0 && w[2] == 0 && w[3] == 0 && w[5] == 0 && w[6] == 0 && w[7] == 0 {
                fillSamples(out, with: clampSample(descale(w[0], pass1Bits + 3)), count: 4)
                continue
            }
            let r = step4(w[0], w[1], w[2], w[3], w[5], w[6], w[7])
            out[0] = clampSample(descale(r.0, shift)); out[1] = clampSample(descale(r.1, shift))
            out[2] = clampSample(descale(r.2, shift)); out[3] = clampSample(descale(r.3, shift))
        }
    }

    /// One block into 2×2 samples (jpeg_idct_2x2), from 32-bit or (sequential storage) 16-bit
    /// coefficients, which it reads sign-extended. `workspace` holds 16 values.
    @inline(__always)
    static func transform2x2<Coefficient: FixedWidthInteger>(_ coefficients: UnsafePointer<Coefficient>,
                                                             workspace: UnsafeMutablePointer<Int32>,
                                                             output: UnsafeMutablePointer<UInt8>, stride: Int) {
        for column in 0..<8 where column == 0 || column & 1 == 1 {
            let c = coefficients + column, w = workspace + column
            @inline(__always) func input(_ row: Int) -> Int32 { Int32(truncatingIfNeeded: c[row * 8]) }
            if c[8] == 0 && c[24] == 0 && c[40] == 0 && c[56] == 0 {
                let dc = input(0) &<< pass1Bits
                w[0] = dc; w[8] = dc
                continue
            }
            let r = step2(input(0), input(1), input(3), input(5), input(7))
            let shift = constantBits - pass1Bits + 2
            w[0] = descale(r.0, shift); w[8] = descale(r.1, shift)
        }
        let shift = constantBits + pass1Bits + 3 + 2
        for row in 0..<2 {
            let w = workspace + row * 8, out = output + row * stride
            if w[1] == 0 && w[3] == 0 && w[5] == 0 && w[7] == 0 {
                fillSamples(out, with: clampSample(descale(w[0], pass1Bits + 3)), count: 2)
                continue
            }
            let r = step2(w[0], w[1], w[3], w[5], w[7])
            out[0] = clampSample(descale(r.0, shift)); out[1] = clampSample(descale(r.1, shift))
        }
    }

    /// One block into 1 sample: the DC term / 8 (jpeg_idct_1x1).
    @inline(__always)
    static func transform1x1(_ coefficients: UnsafePointer<Int32>, output: UnsafeMutablePointer<UInt8>) {
        output[0] = clampSample(descale(coefficients[0], 3))
    }
}
