/// ``TwelveBitInverseDCT``'s 8×8 transform in eight 32-bit lanes, for the blocks where that is
/// exact (nearly all of a real 12-bit image); ``transform(_:quantizers:output:stride:)`` declines
/// the others, which take the 64-bit scalar twin.
///
/// Why 32-bit lanes give libjpeg's 64-bit results:
/// - The LL&M butterflies (``step(_:_:_:_:_:_:_:_:)``) round nothing inside, so each first-pass
///   sum is an integer combination of its column's eight dequantized inputs x, with weights at
///   most ``largestWeight`` in magnitude. Wrapping arithmetic is exact modulo 2^32, so a sum whose
///   true value (with the rounding 2^11) lies in Int32's range comes out exact whatever the
///   intermediate values did; that holds when Σ|x| · largestWeight + 2^11 < 2^31, which the block
///   is checked against first, column by column. The first pass's results are then the C `int`s
///   of libjpeg's workspace.
/// - The second pass needs no check: the range limit reads the low 14 bits of the descaled value,
///   bits 17...30 of the sum, and sums modulo 2^32 have those bits right.
enum TwelveBitLaneInverseDCT {
    typealias Lanes = SIMD8<Int32>

    /// The largest weight of an input in a first-pass sum, 8192 · √2 · cos(π/16) rounded as the
    /// FIX constants combine (tests apply ``step(_:_:_:_:_:_:_:_:)`` to each unit input).
    static let largestWeight: Int64 = 11363

    /// The largest Σ(|x| >> 3) of a column the lanes take: |x| ≤ 8 · (|x| >> 3) + 7, so
    /// Σ|x| ≤ 8 · limit + 56 = 188984, and 188984 · largestWeight + 2^11 < 2^31 (checked by tests:
    /// ((2^31 − 2^11 − 1) / largestWeight − 56) / 8).
    static let columnLimit: Int32 = 23616

    /// The LL&M 8-point step of jidctint.c on wrapping 32-bit lanes; outputs scaled by 2^13.
    @inline(__always)
    static func step(_ x0: Lanes, _ x1: Lanes, _ x2: Lanes, _ x3: Lanes, _ x4: Lanes, _ x5: Lanes, _ x6: Lanes,
                     _ x7: Lanes) -> (Lanes, Lanes, Lanes, Lanes, Lanes, Lanes, Lanes, Lanes) {
        let z1 = (x2 &+ x6) &* InverseDCT.fix0_541196100
        let tmp2 = z1 &+ x6 &* -InverseDCT.fix1_847759065
        let tmp3 = z1 &+ x2 &* InverseDCT.fix0_765366865
        let tmp0 = (x0 &+ x4) &<< 13, tmp1 = (x0 &- x4) &<< 13
        let tmp10 = tmp0 &+ tmp3, tmp13 = tmp0 &- tmp3, tmp11 = tmp1 &+ tmp2, tmp12 = tmp1 &- tmp2
        // Odd part: inputs 7, 5, 3, 1.
        let a = x7, b = x5, c = x3, d = x1
        let z5 = (a &+ c &+ b &+ d) &* InverseDCT.fix1_175875602
        let za = (a &+ d) &* -InverseDCT.fix0_899976223
        let zb = (b &+ c) &* -InverseDCT.fix2_562915447
        let zc = (a &+ c) &* -InverseDCT.fix1_961570560 &+ z5
        let zd = (b &+ d) &* -InverseDCT.fix0_390180644 &+ z5
        let o0 = a &* InverseDCT.fix0_298631336 &+ za &+ zc
        let o1 = b &* InverseDCT.fix2_053119869 &+ zb &+ zd
        let o2 = c &* InverseDCT.fix3_072711026 &+ zb &+ zc
        let o3 = d &* InverseDCT.fix1_501321110 &+ za &+ zd
        return (tmp10 &+ o3, tmp11 &+ o2, tmp12 &+ o1, tmp13 &+ o0, tmp13 &- o0, tmp12 &- o1, tmp11 &- o2, tmp10 &- o3)
    }

    /// Transforms `block` (raw coefficients, natural order) dequantized by `quantizers` (natural
    /// order, 0...65535) into 8×8 samples at `output`, rows `stride` apart, exactly as
    /// ``TwelveBitInverseDCT`` would; returns false, writing nothing, for a block the lanes cannot
    /// take exactly (see above). `scratch` holds 128 bytes.
    @inline(__always)
    static func transform(_ block: UnsafePointer<Int16>, quantizers: UnsafePointer<Int32>, scratch: UnsafeMutableRawPointer,
                          output: UnsafeMutablePointer<UInt16>, stride: Int) -> Bool {
        let coefficients = UnsafeRawPointer(block), table = UnsafeRawPointer(quantizers)
        @inline(__always) func row(_ r: Int) -> Lanes {
            // |coefficient · quantizer| ≤ 32768 · 65535 < 2^31: exact in 32 bits.
            Lanes(truncatingIfNeeded: coefficients.loadUnaligned(fromByteOffset: 16 * r, as: SIMD8<Int16>.self))
                &* table.loadUnaligned(fromByteOffset: 32 * r, as: Lanes.self)
        }
        let x0 = row(0), x1 = row(1), x2 = row(2), x3 = row(3), x4 = row(4), x5 = row(5), x6 = row(6), x7 = row(7)
        @inline(__always) func eighth(_ x: Lanes) -> Lanes {
            let sign = x &>> 31
            return ((x ^ sign) &- sign) &>> 3
        }
        let sums = eighth(x0) &+ eighth(x1) &+ eighth(x2) &+ eighth(x3) &+ eighth(x4) &+ eighth(x5) &+ eighth(x6) &+ eighth(x7)
        if any(sums .> Lanes(repeating: columnLimit)) { return false }

        // First pass, a column in each lane: DESCALE by 12 of sums that fit 32 bits. Transposed,
        // the results give the second pass a row in each lane.
        let p = step(x0, x1, x2, x3, x4, x5, x6, x7)
        let round1 = Lanes(repeating: 1 << 11)
        let w = transpose((p.0 &+ round1) &>> 12, (p.1 &+ round1) &>> 12, (p.2 &+ round1) &>> 12, (p.3 &+ round1) &>> 12,
                          (p.4 &+ round1) &>> 12, (p.5 &+ round1) &>> 12, (p.6 &+ round1) &>> 12, (p.7 &+ round1) &>> 12)
        let q = step(w.0, w.1, w.2, w.3, w.4, w.5, w.6, w.7)

        // Second pass: DESCALE by 17 and the range limit on the low 14 bits, exact modulo 2^32.
        // The wrapped value + 2048 lies in −6144...10239, so 16-bit lanes clamp it.
        @inline(__always) func limit(_ sum: Lanes) -> SIMD8<Int16> {
            let wrapped = (((sum &+ Lanes(repeating: 1 << 16)) &>> 17) &+ Lanes(repeating: 8192)) & Lanes(repeating: 16383)
            let centred = SIMD8<Int16>(truncatingIfNeeded: wrapped &- Lanes(repeating: 8192 - 2048))
            return centred.clamped(lowerBound: SIMD8(repeating: 0), upperBound: SIMD8(repeating: 4095))
        }
        // Lane r of second-pass output c is sample (r, c): through `scratch`, back into rows.
        scratch.storeBytes(of: limit(q.0), toByteOffset: 0, as: SIMD8<Int16>.self)
        scratch.storeBytes(of: limit(q.1), toByteOffset: 16, as: SIMD8<Int16>.self)
        scratch.storeBytes(of: limit(q.2), toByteOffset: 32, as: SIMD8<Int16>.self)
        scratch.storeBytes(of: limit(q.3), toByteOffset: 48, as: SIMD8<Int16>.self)
        scratch.storeBytes(of: limit(q.4), toByteOffset: 64, as: SIMD8<Int16>.self)
        scratch.storeBytes(of: limit(q.5), toByteOffset: 80, as: SIMD8<Int16>.self)
        scratch.storeBytes(of: limit(q.6), toByteOffset: 96, as: SIMD8<Int16>.self)
        scratch.storeBytes(of: limit(q.7), toByteOffset: 112, as: SIMD8<Int16>.self)
        let transposed = UnsafePointer<UInt16>(scratch.assumingMemoryBound(to: UInt16.self))
        for r in 0..<8 {
            let line = SIMD8<UInt16>(transposed[r], transposed[8 + r], transposed[16 + r], transposed[24 + r],
                                     transposed[32 + r], transposed[40 + r], transposed[48 + r], transposed[56 + r])
            UnsafeMutableRawPointer(output + r * stride).storeBytes(of: line, as: SIMD8<UInt16>.self)
        }
        return true
    }

    /// The 8×8 transpose of rows `r0`...`r7` of 32-bit lanes: four 4×4 transposes of halves, by
    /// interleaving (which compiles to unpack instructions, in registers).
    @inline(__always)
    static func transpose(_ r0: Lanes, _ r1: Lanes, _ r2: Lanes, _ r3: Lanes, _ r4: Lanes, _ r5: Lanes, _ r6: Lanes,
                          _ r7: Lanes) -> (Lanes, Lanes, Lanes, Lanes, Lanes, Lanes, Lanes, Lanes) {
        typealias Half = SIMD4<Int32>
        @inline(__always) func square(_ a: Half, _ b: Half, _ c: Half, _ d: Half) -> (Half, Half, Half, Half) {
            let ab0 = Half(a[0], b[0], a[1], b[1]), ab1 = Half(a[2], b[2], a[3], b[3])
            let cd0 = Half(c[0], d[0], c[1], d[1]), cd1 = Half(c[2], d[2], c[3], d[3])
            return (Half(lowHalf: ab0.lowHalf, highHalf: cd0.lowHalf), Half(lowHalf: ab0.highHalf, highHalf: cd0.highHalf),
                    Half(lowHalf: ab1.lowHalf, highHalf: cd1.lowHalf), Half(lowHalf: ab1.highHalf, highHalf: cd1.highHalf))
        }
        let top = square(r0.lowHalf, r1.lowHalf, r2.lowHalf, r3.lowHalf)
        let bottom = square(r4.lowHalf, r5.lowHalf, r6.lowHalf, r7.lowHalf)
        let topRight = square(r0.highHalf, r1.highHalf, r2.highHalf, r3.highHalf)
        let bottomRight = square(r4.highHalf, r5.highHalf, r6.highHalf, r7.highHalf)
        return (Lanes(lowHalf: top.0, highHalf: bottom.0), Lanes(lowHalf: top.1, highHalf: bottom.1),
                Lanes(lowHalf: top.2, highHalf: bottom.2), Lanes(lowHalf: top.3, highHalf: bottom.3),
                Lanes(lowHalf: topRight.0, highHalf: bottomRight.0), Lanes(lowHalf: topRight.1, highHalf: bottomRight.1),
                Lanes(lowHalf: topRight.2, highHalf: bottomRight.2), Lanes(lowHalf: topRight.3, highHalf: bottomRight.3))
    }
}
