/// The accurate integer inverse DCT of libjpeg's `jpeg_idct_islow` (jidctint.c): the
/// Loeffler–Ligtenberg–Moschytz factorisation with 13-bit fixed-point constants and two extra
/// bits of precision between the column and the row pass.
///
/// Input blocks are dequantized (coefficient × quantizer, natural order). Arithmetic is 32-bit with
/// wrapping operators: for coefficients a valid file can hold every intermediate fits (the products
/// of 16-bit values stay below 2^31, the sums below 2^30), and hostile input merely produces wrong
/// pixels, never a trap.
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

    /// Four lanes of 32-bit values: four columns in the first pass, four rows in the second.
    typealias Lanes = SIMD4<Int32>

    /// Transforms one block into 8×8 samples at `output`, rows `stride` apart. Both passes run on
    /// four columns (then four rows) at once, with 4×4 transposes in between, and give exactly the
    /// result of ``transform8x8Scalar(_:workspace:output:stride:)``; `workspace` is not needed.
    @inline(__always)
    static func transform8x8(_ coefficients: UnsafePointer<Int32>, workspace: UnsafeMutablePointer<Int32>,
                             output: UnsafeMutablePointer<UInt8>, stride: Int) {
        transform8x8Vector(coefficients, output: output, stride: stride, topLeftOnly: false)
    }

    /// ``transform8x8(_:workspace:output:stride:)`` for a ``BlockShape/topLeft4x4`` block: rows and
    /// columns 4...7 of the input are zero, so the right half of the first pass is zero and the
    /// zero terms fold away; the result is identical.
    @inline(__always)
    static func transform8x8TopLeft(_ coefficients: UnsafePointer<Int32>, workspace: UnsafeMutablePointer<Int32>,
                                    output: UnsafeMutablePointer<UInt8>, stride: Int) {
        transform8x8Vector(coefficients, output: output, stride: stride, topLeftOnly: true)
    }

    /// The vector transform; `topLeftOnly` is a constant at each call, so its branches fold.
    @inline(__always)
    private static func transform8x8Vector(_ coefficients: UnsafePointer<Int32>, output: UnsafeMutablePointer<UInt8>,
                                           stride: Int, topLeftOnly: Bool) {
        let input = UnsafeRawPointer(coefficients)
        let zero = Lanes()
        // Pass 1: lane i of row vector r is column i (left half) or 4 + i (right half).
        @inline(__always) func pass1(_ half: Int) -> (Lanes, Lanes, Lanes, Lanes, Lanes, Lanes, Lanes, Lanes) {
            @inline(__always) func row(_ r: Int) -> Lanes {
                topLeftOnly && r >= 4 ? zero : input.loadUnaligned(fromByteOffset: (r * 8 + half * 4) * 4, as: Lanes.self)
            }
            let r = butterfly(row(0), row(1), row(2), row(3), row(4), row(5), row(6), row(7))
            let shift = constantBits - pass1Bits
            let rounding = Int32(1) << (shift - 1)
            return ((r.0 &+ rounding) &>> shift, (r.1 &+ rounding) &>> shift, (r.2 &+ rounding) &>> shift,
                    (r.3 &+ rounding) &>> shift, (r.4 &+ rounding) &>> shift, (r.5 &+ rounding) &>> shift,
                    (r.6 &+ rounding) &>> shift, (r.7 &+ rounding) &>> shift)
        }
        let left = pass1(0)
        let right = topLeftOnly ? (zero, zero, zero, zero, zero, zero, zero, zero) : pass1(1)
        // Pass 2: lane k of column vector i is row k (top half) or 4 + k (bottom half).
        // Descale by 18 bits and add the 128 centre in one step: (v + 2^17 + 128 · 2^18) >> 18.
        let shift = constantBits + pass1Bits + 3
        let bias = (Int32(1) << (shift - 1)) &+ (128 << shift)
        let lowest = SIMD8<Int32>(repeating: Int32(Int16.min)), highest = SIMD8<Int32>(repeating: Int32(Int16.max))
        let maxSample = SIMD8<Int16>(repeating: 255)
        /// Columns `a` and `b` (lane k = row k) as samples: descaled, then clamped to 0...255.
        /// Written as a saturating narrowing to 16 bits and a 16-bit clamp, which x86's SSE2 does in
        /// three instructions (packssdw, pmaxsw, pminsw); 32-bit min/max has no SSE2 instruction.
        /// The result is the plain clamp of the 32-bit value. Returns, per row k, the two samples
        /// as the 16-bit value a | b << 8.
        @inline(__always) func samplePair(_ a: Lanes, _ b: Lanes) -> SIMD4<UInt16> {
            let wide = SIMD8<Int32>(lowHalf: (a &+ bias) &>> shift, highHalf: (b &+ bias) &>> shift)
            let narrow = SIMD8<Int16>(truncatingIfNeeded: pointwiseMin(pointwiseMax(wide, lowest), highest))
            let clamped = SIMD8<UInt16>(truncatingIfNeeded: pointwiseMin(pointwiseMax(narrow, .zero), maxSample))
            return clamped.lowHalf | clamped.highHalf &<< 8
        }
        @inline(__always) func pass2(_ a: (Lanes, Lanes, Lanes, Lanes), _ b: (Lanes, Lanes, Lanes, Lanes), rows: Int) {
            let c = transpose(a), d = topLeftOnly ? (zero, zero, zero, zero) : transpose(b)
            let r = butterfly(c.0, c.1, c.2, c.3, d.0, d.1, d.2, d.3)
            // Lane k of `low` holds that row's samples 0...3 as bytes, `high` samples 4...7.
            let low = SIMD4<Int32>(truncatingIfNeeded: samplePair(r.0, r.1)) | SIMD4<Int32>(truncatingIfNeeded: samplePair(r.2, r.3)) &<< 16
            let high = SIMD4<Int32>(truncatingIfNeeded: samplePair(r.4, r.5)) | SIMD4<Int32>(truncatingIfNeeded: samplePair(r.6, r.7)) &<< 16
            for k in 0..<4 {
                let out = UnsafeMutableRawPointer(output + (rows + k) * stride)
                out.storeBytes(of: UInt32(bitPattern: low[k]).littleEndian, as: UInt32.self)
                out.storeBytes(of: UInt32(bitPattern: high[k]).littleEndian, toByteOffset: 4, as: UInt32.self)
            }
        }
        pass2((left.0, left.1, left.2, left.3), (right.0, right.1, right.2, right.3), rows: 0)
        pass2((left.4, left.5, left.6, left.7), (right.4, right.5, right.6, right.7), rows: 4)
    }

    /// Transposes a 4×4 tile given as four row vectors.
    @inline(__always)
    static func transpose(_ m: (Lanes, Lanes, Lanes, Lanes)) -> (Lanes, Lanes, Lanes, Lanes) {
        (Lanes(m.0[0], m.1[0], m.2[0], m.3[0]), Lanes(m.0[1], m.1[1], m.2[1], m.3[1]),
         Lanes(m.0[2], m.1[2], m.2[2], m.3[2]), Lanes(m.0[3], m.1[3], m.2[3], m.3[3]))
    }

    /// One value at a time, with libjpeg's shortcuts for columns and rows whose AC terms are zero
    /// (they give exactly what the full computation gives): the careful twin of ``transform8x8(_:workspace:output:stride:)``.
    static func transform8x8Scalar(_ coefficients: UnsafePointer<Int32>, workspace: UnsafeMutablePointer<Int32>,
                                   output: UnsafeMutablePointer<UInt8>, stride: Int) {
        for column in 0..<8 {
            let c = coefficients + column, w = workspace + column
            if c[8] == 0 && c[16] == 0 && c[24] == 0 && c[32] == 0 && c[40] == 0 && c[48] == 0 && c[56] == 0 {
                let dc = c[0] &<< pass1Bits
                for row in 0..<8 { w[row * 8] = dc }
                continue
            }
            storeColumn(butterfly(c[0], c[8], c[16], c[24], c[32], c[40], c[48], c[56]), into: w)
        }
        for row in 0..<8 {
            let w = workspace + row * 8, out = output + row * stride
            if w[1] == 0 && w[2] == 0 && w[3] == 0 && w[4] == 0 && w[5] == 0 && w[6] == 0 && w[7] == 0 {
                fillSamples(out, with: clampSample(descale(w[0], pass1Bits + 3)), count: 8)
                continue
            }
            storeRow(butterfly(w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]), into: out)
        }
    }

    /// First-pass results of one column into the workspace, descaled to keep `pass1Bits` extra bits.
    @inline(__always)
    static func storeColumn(_ r: (Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32), into w: UnsafeMutablePointer<Int32>) {
        let shift = constantBits - pass1Bits
        w[0] = descale(r.0, shift); w[8] = descale(r.1, shift)
        w[16] = descale(r.2, shift); w[24] = descale(r.3, shift)
        w[32] = descale(r.4, shift); w[40] = descale(r.5, shift)
        w[48] = descale(r.6, shift); w[56] = descale(r.7, shift)
    }

    /// Second-pass results of one row as samples.
    @inline(__always)
    static func storeRow(_ r: (Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32), into out: UnsafeMutablePointer<UInt8>) {
        let shift = constantBits + pass1Bits + 3
        out[0] = clampSample(descale(r.0, shift)); out[1] = clampSample(descale(r.1, shift))
        out[2] = clampSample(descale(r.2, shift)); out[3] = clampSample(descale(r.3, shift))
        out[4] = clampSample(descale(r.4, shift)); out[5] = clampSample(descale(r.5, shift))
        out[6] = clampSample(descale(r.6, shift)); out[7] = clampSample(descale(r.7, shift))
    }

    /// `v` reduced to its low 16 bits, sign-extended. Every value multiplied in the butterfly fits
    /// in 16 bits for a valid file (libjpeg-turbo's SIMD IDCT holds them in 16-bit lanes too), and
    /// saying so lets the compiler multiply with one 16 × 16 → 32-bit instruction instead of
    /// emulating a 32-bit multiply.
    @inline(__always)
    static func narrow(_ v: Lanes) -> Lanes { (v &<< 16) &>> 16 }

    /// One 8-point 1-D IDCT (LL&M, jidctint.c figure 8) on four lanes, outputs scaled by 2^constantBits.
    @inline(__always)
    static func butterfly(_ x0: Lanes, _ x1: Lanes, _ x2: Lanes, _ x3: Lanes, _ x4: Lanes, _ x5: Lanes, _ x6: Lanes, _ x7: Lanes)
        -> (Lanes, Lanes, Lanes, Lanes, Lanes, Lanes, Lanes, Lanes) {
        let x1 = narrow(x1), x2 = narrow(x2), x3 = narrow(x3), x5 = narrow(x5), x6 = narrow(x6), x7 = narrow(x7)
        // Even part: the rotator is sqrt(2)·c(-6).
        let z1 = narrow(x2 &+ x6) &* fix0_541196100
        let tmp2 = z1 &+ x6 &* -fix1_847759065
        let tmp3 = z1 &+ x2 &* fix0_765366865
        let tmp0 = (x0 &+ x4) &<< constantBits
        let tmp1 = (x0 &- x4) &<< constantBits
        let tmp10 = tmp0 &+ tmp3, tmp13 = tmp0 &- tmp3
        let tmp11 = tmp1 &+ tmp2, tmp12 = tmp1 &- tmp2
        // Odd part: inputs y7, y5, y3, y1.
        let o1 = narrow(x7 &+ x1), o2 = narrow(x5 &+ x3), o3 = narrow(x7 &+ x3), o4 = narrow(x5 &+ x1)
        let z5 = narrow(o3 &+ o4) &* fix1_175875602
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

    /// The butterfly on single values (lane 0 of the vector one), for the scalar twin.
    static func butterfly(_ x0: Int32, _ x1: Int32, _ x2: Int32, _ x3: Int32, _ x4: Int32, _ x5: Int32, _ x6: Int32, _ x7: Int32)
        -> (Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32) {
        let r = butterfly(Lanes(repeating: x0), Lanes(repeating: x1), Lanes(repeating: x2), Lanes(repeating: x3),
                          Lanes(repeating: x4), Lanes(repeating: x5), Lanes(repeating: x6), Lanes(repeating: x7))
        return (r.0[0], r.1[0], r.2[0], r.3[0], r.4[0], r.5[0], r.6[0], r.7[0])
    }
}
