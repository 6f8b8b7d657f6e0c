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

    @inline(__always) static func minimum(_ a: Wide, _ b: Wide) -> Wide { a.replacing(with: b, where: b .< a) }
    @inline(__always) static func maximum(_ a: Wide, _ b: Wide) -> Wide { a.replacing(with: b, where: b .> a) }
    @inline(__always) static func clamp(_ a: Wide, _ low: Int16, _ high: Int16) -> Wide {
        minimum(maximum(a, Wide(repeating: low)), Wide(repeating: high))
    }
    /// |a| for values well inside Int16's range.
    @inline(__always) static func magnitude(_ a: Wide) -> Wide { maximum(a, 0 &- a) }

    /// The even and odd bytes of `bytes` as 16-bit lanes.
    @inline(__always) static func split(_ bytes: SIMD16<UInt8>) -> (even: Wide, odd: Wide) {
        let words = unsafeBitCast(bytes, to: SIMD8<UInt16>.self)
        return (unsafeBitCast(words & 0xFF, to: Wide.self), unsafeBitCast(words &>> 8, to: Wide.self))
    }

    /// The inverse of ``split(_:)``, each lane clamped to 0...255 first.
    @inline(__always) static func join(_ even: Wide, _ odd: Wide) -> SIMD16<UInt8> {
        let low = unsafeBitCast(clamp(even, 0, 255), to: SIMD8<UInt16>.self)
        let high = unsafeBitCast(clamp(odd, 0, 255), to: SIMD8<UInt16>.self)
        return unsafeBitCast(low | (high &<< 8), to: SIMD16<UInt8>.self)
    }

    /// Two 8-byte rows as one vector: `first` in lanes 0–7, `second` in lanes 8–15.
    @inline(__always) static func load(_ first: UnsafePointer<UInt8>, _ second: UnsafePointer<UInt8>) -> SIMD16<UInt8> {
        let pair = SIMD2<UInt64>(UnsafeRawPointer(first).loadUnaligned(as: UInt64.self),
                                 UnsafeRawPointer(second).loadUnaligned(as: UInt64.self))
        return unsafeBitCast(pair, to: SIMD16<UInt8>.self)
    }

    /// Stores lanes 0–7 of `bytes` at `first` and lanes 8–15 at `second`.
    @inline(__always) static func store(_ bytes: SIMD16<UInt8>, _ first: UnsafeMutablePointer<UInt8>,
                                        _ second: UnsafeMutablePointer<UInt8>) {
        let pair = unsafeBitCast(bytes, to: SIMD2<UInt64>.self)
        UnsafeMutableRawPointer(first).storeBytes(of: pair[0], as: UInt64.self)
        UnsafeMutableRawPointer(second).storeBytes(of: pair[1], as: UInt64.self)
    }

    /// Transposes two 8×8 byte blocks held as eight `SIMD2<UInt64>` rows (block 0 in element 0 of
    /// each, block 1 in element 1): afterwards `rows[k]` holds column `k` of both blocks. The
    /// transpose is its own inverse. Three rounds of swaps between rows 1, 2 and 4 apart (the
    /// classic 64-bit SWAR transpose), each a few shifts, ands and xors.
    @inline(__always) static func transpose(_ r: inout (SIMD2<UInt64>, SIMD2<UInt64>, SIMD2<UInt64>, SIMD2<UInt64>,
                                                       SIMD2<UInt64>, SIMD2<UInt64>, SIMD2<UInt64>, SIMD2<UInt64>)) {
        @inline(__always) func swap(_ a: inout SIMD2<UInt64>, _ b: inout SIMD2<UInt64>, _ shift: UInt64, _ mask: UInt64) {
            let t = ((a &>> shift) ^ b) & SIMD2(repeating: mask)
            b ^= t
            a ^= t &<< shift
        }
        let m8: UInt64 = 0x00FF_00FF_00FF_00FF, m16: UInt64 = 0x0000_FFFF_0000_FFFF, m32: UInt64 = 0x0000_0000_FFFF_FFFF
        swap(&r.0, &r.1, 8, m8); swap(&r.2, &r.3, 8, m8); swap(&r.4, &r.5, 8, m8); swap(&r.6, &r.7, 8, m8)
        swap(&r.0, &r.2, 16, m16); swap(&r.1, &r.3, 16, m16); swap(&r.4, &r.6, 16, m16); swap(&r.5, &r.7, 16, m16)
        swap(&r.0, &r.4, 32, m32); swap(&r.1, &r.5, 32, m32); swap(&r.2, &r.6, 32, m32); swap(&r.3, &r.7, 32, m32)
    }
}
