/// The accurate integer inverse DCT of libjpeg's `jpeg_idct_islow` (jidctint.c): the
/// Loeffler–Ligtenberg–Moschytz factorisation with 13-bit fixed-point constants, two extra
/// bits of precision between the passes, dequantization folded into the first pass.
///
/// Arithmetic is 32-bit with wrapping operators: for coefficients a valid file can hold every
/// intermediate fits (|coef × q| < 2^31 and the sums stay below 2^30), and hostile input merely
/// produces wrong pixels, never a trap.
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

    /// Dequantizes and transforms one block (natural order) into 8×8 samples at `output`, rows `stride` apart.
    /// `workspace` holds 64 values.
    @inline(__always)
    static func transform8x8(_ coefficients: UnsafePointer<Int16>, quantization: UnsafePointer<Int32>,
                             workspace: UnsafeMutablePointer<Int32>, output: UnsafeMutablePointer<UInt8>, stride: Int) {
        // Pass 1: columns, results scaled up by 2^pass1Bits.
        for column in 0..<8 {
            let c = coefficients + column, q = quantization + column, w = workspace + column
            if c[8] == 0 && c[16] == 0 && c[24] == 0 && c[32] == 0 && c[40] == 0 && c[48] == 0 && c[56] == 0 {
                // Only DC: every output of the column is the same (exactly what the full path gives).
                let dc = (Int32(c[0]) &* q[0]) &<< pass1Bits
                for row in 0..<8 { w[row * 8] = dc }
                continue
            }
            let r = butterfly(Int32(c[0]) &* q[0], Int32(c[8]) &* q[8], Int32(c[16]) &* q[16], Int32(c[24]) &* q[24],
                              Int32(c[32]) &* q[32], Int32(c[40]) &* q[40], Int32(c[48]) &* q[48], Int32(c[56]) &* q[56])
            let shift = constantBits - pass1Bits
            w[0] = descale(r.0, shift); w[8] = descale(r.1, shift)
            w[16] = descale(r.2, shift); w[24] = descale(r.3, shift)
            w[32] = descale(r.4, shift); w[40] = descale(r.5, shift)
            w[48] = descale(r.6, shift); w[56] = descale(r.7, shift)
        }
        // Pass 2: rows; remove pass1Bits and the DCT's factor 8 (3 bits).
        let shift = constantBits + pass1Bits + 3
        for row in 0..<8 {
            let w = workspace + row * 8, out = output + row * stride
            if w[1] == 0 && w[2] == 0 && w[3] == 0 && w[4] == 0 && w[5] == 0 && w[6] == 0 && w[7] == 0 {
                let value = clampSample(descale(w[0], pass1Bits + 3))
                out.update(repeating: value, count: 8)
                continue
            }
            let r = butterfly(w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7])
            out[0] = clampSample(descale(r.0, shift)); out[1] = clampSample(descale(r.1, shift))
            out[2] = clampSample(descale(r.2, shift)); out[3] = clampSample(descale(r.3, shift))
            out[4] = clampSample(descale(r.4, shift)); out[5] = clampSample(descale(r.5, shift))
            out[6] = clampSample(descale(r.6, shift)); out[7] = clampSample(descale(r.7, shift))
        }
    }

    /// ``transform8x8`` for a block whose rows and columns 4...7 are zero (``BlockShape/topLeft4x4``):
    /// the same arithmetic with the zero terms left out, so the result is identical.
    @inline(__always)
    static func transform8x8TopLeft(_ coefficients: UnsafePointer<Int16>, quantization: UnsafePointer<Int32>,
                                    workspace: UnsafeMutablePointer<Int32>, output: UnsafeMutablePointer<UInt8>, stride: Int) {
        for column in 0..<4 {
            let c = coefficients + column, q = quantization + column, w = workspace + column
            if c[8] == 0 && c[16] == 0 && c[24] == 0 {
                let dc = (Int32(c[0]) &* q[0]) &<< pass1Bits
                for row in 0..<8 { w[row * 8] = dc }
                continue
            }
            let r = butterfly4(Int32(c[0]) &* q[0], Int32(c[8]) &* q[8], Int32(c[16]) &* q[16], Int32(c[24]) &* q[24])
            let shift = constantBits - pass1Bits
            w[0] = descale(r.0, shift); w[8] = descale(r.1, shift)
            w[16] = descale(r.2, shift); w[24] = descale(r.3, shift)
            w[32] = descale(r.4, shift); w[40] = descale(r.5, shift)
            w[48] = descale(r.6, shift); w[56] = descale(r.7, shift)
        }
        let shift = constantBits + pass1Bits + 3
        for row in 0..<8 {
            let w = workspace + row * 8, out = output + row * stride
            if w[1] == 0 && w[2] == 0 && w[3] == 0 {
                out.update(repeating: clampSample(descale(w[0], pass1Bits + 3)), count: 8)
                continue
            }
            let r = butterfly4(w[0], w[1], w[2], w[3])
            out[0] = clampSample(descale(r.0, shift)); out[1] = clampSample(descale(r.1, shift))
            out[2] = clampSample(descale(r.2, shift)); out[3] = clampSample(descale(r.3, shift))
            out[4] = clampSample(descale(r.4, shift)); out[5] = clampSample(descale(r.5, shift))
            out[6] = clampSample(descale(r.6, shift)); out[7] = clampSample(descale(r.7, shift))
        }
    }

    /// ``butterfly(_:_:_:_:_:_:_:_:)`` with inputs 4...7 zero.
    @inline(__always)
    static func butterfly4(_ x0: Int32, _ x1: Int32, _ x2: Int32, _ x3: Int32)
        -> (Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32) {
        let z1 = x2 &* fix0_541196100
        let tmp3 = z1 &+ x2 &* fix0_765366865
        let tmp0 = x0 &<< constantBits
        let tmp10 = tmp0 &+ tmp3, tmp13 = tmp0 &- tmp3
        let tmp11 = tmp0 &+ z1, tmp12 = tmp0 &- z1
        let z5 = (x3 &+ x1) &* fix1_175875602
        let m1 = x1 &* -fix0_899976223
        let m2 = x3 &* -fix2_562915447
        let m3 = x3 &* -fix1_961570560 &+ z5
        let m4 = x1 &* -fix0_390180644 &+ z5
        let t0 = m1 &+ m3
        let t1 = m2 &+ m4
        let t2 = x3 &* fix3_072711026 &+ m2 &+ m3
        let t3 = x1 &* fix1_501321110 &+ m1 &+ m4
        return (tmp10 &+ t3, tmp11 &+ t2, tmp12 &+ t1, tmp13 &+ t0,
                tmp13 &- t0, tmp12 &- t1, tmp11 &- t2, tmp10 &- t3)
    }

    /// One 8-point 1-D IDCT (LL&M, jidctint.c figure 8), outputs scaled by 2^constantBits.
    @inline(__always)
    static func butterfly(_ x0: Int32, _ x1: Int32, _ x2: Int32, _ x3: Int32,
                          _ x4: Int32, _ x5: Int32, _ x6: Int32, _ x7: Int32)
        -> (Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32) {
        // Even part: the rotator is sqrt(2)·c(-6).
        let z1 = (x2 &+ x6) &* fix0_541196100
        let tmp2 = z1 &+ x6 &* -fix1_847759065
        let tmp3 = z1 &+ x2 &* fix0_765366865
        let tmp0 = (x0 &+ x4) &<< constantBits
        let tmp1 = (x0 &- x4) &<< constantBits
        let tmp10 = tmp0 &+ tmp3, tmp13 = tmp0 &- tmp3
        let tmp11 = tmp1 &+ tmp2, tmp12 = tmp1 &- tmp2
        // Odd part: inputs y7, y5, y3, y1.
        let o1 = x7 &+ x1, o2 = x5 &+ x3, o3 = x7 &+ x3, o4 = x5 &+ x1
        let z5 = (o3 &+ o4) &* fix1_175875602
        let m1 = o1 &* -fix0_899976223
        let m2 = o2 &* -fix2_562915447
        let m3 = o3 &* -fix1_961570560 &+ z5
        let m4 = o4 &* -fix0_390180644 &+ z5
        let t0 = x7 &* fix0_298631336 &+ m1 &+ m3
        let t1 = x5 &* fix2_053119869 &+ m2 &+ m4
        let t2 = x3 &* fix3_072711026 &+ m2 &+ m3
        let t3 = x1 &* fix1_501321110 &+ m1 &+ m4
        return (tmp10 &+ t3, tmp11 &+ t2, tmp12 &+ t1, tmp13 &+ t0,
                tmp13 &- t0, tmp12 &- t1, tmp11 &- t2, tmp10 &- t3)
    }
}
