/// Helpers for the lossy kernels that work on 16 samples at once.
///
/// *Why not the standard library's `pointwiseMin`, `clamped` or `SIMD16<Int16>(truncatingIfNeeded:)`:*
/// on Linux they compile to calls of generic, lane-by-lane code, which made an earlier SIMD loop
/// filter slower than the scalar one. Comparisons, `replacing(with:where:)`, shifts and bit
/// operations on concrete SIMD types lower to single SSE2/NEON instructions, and LLVM turns the
/// compare-and-select below into `pminsw`/`pmaxsw`.
///
/// Sixteen bytes are widened by splitting them into their even and odd lanes (two `SIMD8<Int16>`,
/// a mask and a shift of the same register), so the kernels see lanes in the order 0, 2, 4, …
/// and 1, 3, 5, …; every kernel is lane-wise, so the order does not matter as long as
/// ``join(_:_:)`` puts them back.
enum VP8Lanes {
    typealias Wide = SIMD8<Int16>

    @inline(always) static func minimum(_ a: Wide, _ b: Wide) -> Wide { a.replacing(with: b, where: b .< a) }
    @inline(always) static func maximum(_ a: Wide, _ b: Wide) -> Wide { a.replacing(with: b, where: b .> a) }
    @inline(always) static func clamp(_ a: Wide, _ low: Int16, _ high: Int16) -> Wide {
        minimum(maximum(a, Wide(repeating: low)), Wide(repeating: high))
    }
    /// |a| for values well inside Int16's range.
    @inline(always) static func magnitude(_ a: Wide) -> Wide { maximum(a, 0 &- a) }

    /// The high 16 bits of each lane's 32-bit product, unsigned. Written as widen, multiply,
    /// shift and narrow lane by lane, which LLVM turns into one `pmulhuw` (`umull` + `uzp2` on
    /// arm64); there is no standard-library operation for it.
    @inline(always) static func multiplyHigh(_ a: SIMD8<UInt16>, _ b: SIMD8<UInt16>) -> SIMD8<UInt16> {
        let wa = SIMD8<UInt32>(UInt32(a[0]), UInt32(a[1]), UInt32(a[2]), UInt32(a[3]),
                               UInt32(a[4]), UInt32(a[5]), UInt32(a[6]), UInt32(a[7]))
        let wb = SIMD8<UInt32>(UInt32(b[0]), UInt32(b[1]), UInt32(b[2]), UInt32(b[3]),
                               UInt32(b[4]), UInt32(b[5]), UInt32(b[6]), UInt32(b[7]))
        let p = (wa &* wb) &>> 16
        return SIMD8(UInt16(truncatingIfNeeded: p[0]), UInt16(truncatingIfNeeded: p[1]), UInt16(truncatingIfNeeded: p[2]),
                     UInt16(truncatingIfNeeded: p[3]), UInt16(truncatingIfNeeded: p[4]), UInt16(truncatingIfNeeded: p[5]),
                     UInt16(truncatingIfNeeded: p[6]), UInt16(truncatingIfNeeded: p[7]))
    }

    /// The high 16 bits of each lane's 32-bit product, signed (`pmulhw`; see the unsigned one).
    @inline(always) static func multiplyHigh(_ a: Wide, _ b: Int16) -> Wide {
        let wa = SIMD8<Int32>(Int32(a[0]), Int32(a[1]), Int32(a[2]), Int32(a[3]),
                              Int32(a[4]), Int32(a[5]), Int32(a[6]), Int32(a[7]))
        let p = (wa &* Int32(b)) &>> 16
        return Wide(Int16(truncatingIfNeeded: p[0]), Int16(truncatingIfNeeded: p[1]), Int16(truncatingIfNeeded: p[2]),
                    Int16(truncatingIfNeeded: p[3]), Int16(truncatingIfNeeded: p[4]), Int16(truncatingIfNeeded: p[5]),
                    Int16(truncatingIfNeeded: p[6]), Int16(truncatingIfNeeded: p[7]))
    }

    /// Eight bytes at `p` as 16-bit lanes (one `movq` + `punpcklbw`).
    @inline(always) static func widen(_ p: UnsafePointer<UInt8>) -> Wide {
        Wide(Int16(p[0]), Int16(p[1]), Int16(p[2]), Int16(p[3]), Int16(p[4]), Int16(p[5]), Int16(p[6]), Int16(p[7]))
    }

    /// The even and odd bytes of `bytes` as 16-bit lanes.
    @inline(always) static func split(_ bytes: SIMD16<UInt8>) -> (even: Wide, odd: Wide) {
        let words = unsafeBitCast(bytes, to: SIMD8<UInt16>.self)
        return (unsafeBitCast(words & 0xFF, to: Wide.self), unsafeBitCast(words &>> 8, to: Wide.self))
    }

    /// The inverse of ``split(_:)``, each lane clamped to 0...255 first.
    @inline(always) static func join(_ even: Wide, _ odd: Wide) -> SIMD16<UInt8> {
        let low = unsafeBitCast(clamp(even, 0, 255), to: SIMD8<UInt16>.self)
        let high = unsafeBitCast(clamp(odd, 0, 255), to: SIMD8<UInt16>.self)
        return unsafeBitCast(low | (high &<< 8), to: SIMD16<UInt8>.self)
    }

    /// Two 8-byte rows as one vector: `first` in lanes 0–7, `second` in lanes 8–15.
    @inline(always) static func load(_ first: UnsafePointer<UInt8>, _ second: UnsafePointer<UInt8>) -> SIMD16<UInt8> {
        let pair = SIMD2<UInt64>(UnsafeRawPointer(first).loadUnaligned(as: UInt64.self),
                                 UnsafeRawPointer(second).loadUnaligned(as: UInt64.self))
        return unsafeBitCast(pair, to: SIMD16<UInt8>.self)
    }

    /// Stores lanes 0–7 of `bytes` at `first` and lanes 8–15 at `second`.
    @inline(always) static func store(_ bytes: SIMD16<UInt8>, _ first: UnsafeMutablePointer<UInt8>,
                                        _ second: UnsafeMutablePointer<UInt8>) {
        let pair = unsafeBitCast(bytes, to: SIMD2<UInt64>.self)
        UnsafeMutableRawPointer(first).storeBytes(of: pair[0], as: UInt64.self)
        UnsafeMutableRawPointer(second).storeBytes(of: pair[1], as: UInt64.self)
    }

    /// Transposes two 8×8 byte blocks held as eight `SIMD2<UInt64>` rows (block 0 in element 0 of
    /// each, block 1 in element 1): afterwards `rows[k]` holds column `k` of both blocks. The
    /// transpose is its own inverse. Three rounds of interleaves (bytes of row pairs, then 16-bit
    /// pairs, then 32-bit quads) gather each block's columns two to a vector, and a last round of
    /// 64-bit interleaves pairs block 0's column with block 1's. Each interleave is a lane-wise
    /// initialiser that LLVM lowers to one `punpckl*`/`punpckh*` (the earlier shift-and-xor
    /// transpose on `SIMD2<UInt64>` was partly scalarised).
    @inline(__always) static func transpose(_ r: inout (SIMD2<UInt64>, SIMD2<UInt64>, SIMD2<UInt64>, SIMD2<UInt64>,
                                                       SIMD2<UInt64>, SIMD2<UInt64>, SIMD2<UInt64>, SIMD2<UInt64>)) {
        @inline(__always) func bytes(_ x: SIMD2<UInt64>) -> SIMD16<UInt8> { unsafeBitCast(x, to: SIMD16<UInt8>.self) }
        // Bytes of rows 2i and 2i+1: block 0's (low halves) and block 1's (high halves, moved
        // down first: a high-byte interleave of rows built from two loads became some 120
        // scalar and mask instructions per transpose, this pshufd + punpcklbw does not).
        @inline(__always) func pairs(_ a: SIMD2<UInt64>, _ b: SIMD2<UInt64>) -> (SIMD8<UInt16>, SIMD8<UInt16>) {
            (unsafeBitCast(zipLow(bytes(a), bytes(b)), to: SIMD8<UInt16>.self),
             unsafeBitCast(zipLow(bytes(SIMD2(a[1], a[1])), bytes(SIMD2(b[1], b[1]))), to: SIMD8<UInt16>.self))
        }
        // Four rows of columns 0–3 and of columns 4–7.
        @inline(__always) func quads(_ a: SIMD8<UInt16>, _ b: SIMD8<UInt16>) -> (SIMD4<UInt32>, SIMD4<UInt32>) {
            (unsafeBitCast(zipLow(a, b), to: SIMD4<UInt32>.self), unsafeBitCast(zipHigh(a, b), to: SIMD4<UInt32>.self))
        }
        // Whole columns (eight rows), two per vector.
        @inline(__always) func columns(_ a: SIMD4<UInt32>, _ b: SIMD4<UInt32>) -> (SIMD2<UInt64>, SIMD2<UInt64>) {
            (unsafeBitCast(SIMD4(a[0], b[0], a[1], b[1]), to: SIMD2<UInt64>.self),
             unsafeBitCast(SIMD4(a[2], b[2], a[3], b[3]), to: SIMD2<UInt64>.self))
        }
        let (a01, b01) = pairs(r.0, r.1), (a23, b23) = pairs(r.2, r.3)
        let (a45, b45) = pairs(r.4, r.5), (a67, b67) = pairs(r.6, r.7)
        let (aTop03, aTop47) = quads(a01, a23), (aBottom03, aBottom47) = quads(a45, a67)
        let (bTop03, bTop47) = quads(b01, b23), (bBottom03, bBottom47) = quads(b45, b67)
        let (a0and1, a2and3) = columns(aTop03, aBottom03), (a4and5, a6and7) = columns(aTop47, aBottom47)
        let (b0and1, b2and3) = columns(bTop03, bBottom03), (b4and5, b6and7) = columns(bTop47, bBottom47)
        r = (SIMD2(a0and1[0], b0and1[0]), SIMD2(a0and1[1], b0and1[1]), SIMD2(a2and3[0], b2and3[0]), SIMD2(a2and3[1], b2and3[1]),
             SIMD2(a4and5[0], b4and5[0]), SIMD2(a4and5[1], b4and5[1]), SIMD2(a6and7[0], b6and7[0]), SIMD2(a6and7[1], b6and7[1]))
    }

    /// Bytes 0–7 of `a` and `b` interleaved, a0 b0 a1 b1 … (`punpcklbw`).
    @inline(always) static func zipLow(_ a: SIMD16<UInt8>, _ b: SIMD16<UInt8>) -> SIMD16<UInt8> {
        SIMD16(a[0], b[0], a[1], b[1], a[2], b[2], a[3], b[3], a[4], b[4], a[5], b[5], a[6], b[6], a[7], b[7])
    }

    /// Lanes 0–3 of `a` and `b` interleaved (`punpcklwd`).
    @inline(always) static func zipLow(_ a: SIMD8<UInt16>, _ b: SIMD8<UInt16>) -> SIMD8<UInt16> {
        SIMD8(a[0], b[0], a[1], b[1], a[2], b[2], a[3], b[3])
    }

    /// Lanes 4–7 of `a` and `b` interleaved (`punpckhwd`).
    @inline(always) static func zipHigh(_ a: SIMD8<UInt16>, _ b: SIMD8<UInt16>) -> SIMD8<UInt16> {
        SIMD8(a[4], b[4], a[5], b[5], a[6], b[6], a[7], b[7])
    }
}
