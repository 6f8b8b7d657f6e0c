/// Byte-lane arithmetic for the loop filter: RFC 6386 section 15 states the filter in signed
/// bytes with saturation (`c()` clamps to −128…127), and these helpers do exactly that on 16
/// lanes at once.
///
/// *Why the long lane-wise initialisers:* written this way (widen each lane, operate, clamp,
/// narrow), LLVM recognises the patterns and emits SSE2's saturating byte instructions
/// (`paddsb`, `psubsb`, `paddusb`, `pmaxub`, `pminub`, `pcmpeqb`); the standard library's
/// generic conversions would be out-of-line loops.
enum VP8SignedBytes {
    typealias Bytes = SIMD16<UInt8>
    typealias Signed = SIMD16<Int8>
    typealias Wide = SIMD16<Int16>

    /// Unsigned samples as signed ones (RFC 6386 `u2s`: v − 128), and back (`s2u`).
    @inline(always) static func signed(_ v: Bytes) -> Signed { unsafeBitCast(v ^ 0x80, to: Signed.self) }
    @inline(always) static func unsigned(_ v: Signed) -> Bytes { unsafeBitCast(v, to: Bytes.self) ^ 0x80 }

    @inline(always) static func widen(_ a: Signed) -> Wide {
        Wide(Int16(a[0]), Int16(a[1]), Int16(a[2]), Int16(a[3]), Int16(a[4]), Int16(a[5]), Int16(a[6]), Int16(a[7]),
             Int16(a[8]), Int16(a[9]), Int16(a[10]), Int16(a[11]), Int16(a[12]), Int16(a[13]), Int16(a[14]), Int16(a[15]))
    }

    /// `c()` of every lane, narrowed back to bytes.
    @inline(always) static func clampNarrow(_ s: Wide) -> Signed {
        let low = Wide(repeating: -128), high = Wide(repeating: 127)
        let c = s.replacing(with: low, where: s .< low).replacing(with: high, where: s .> high)
        return Signed(Int8(truncatingIfNeeded: c[0]), Int8(truncatingIfNeeded: c[1]), Int8(truncatingIfNeeded: c[2]),
                      Int8(truncatingIfNeeded: c[3]), Int8(truncatingIfNeeded: c[4]), Int8(truncatingIfNeeded: c[5]),
                      Int8(truncatingIfNeeded: c[6]), Int8(truncatingIfNeeded: c[7]), Int8(truncatingIfNeeded: c[8]),
                      Int8(truncatingIfNeeded: c[9]), Int8(truncatingIfNeeded: c[10]), Int8(truncatingIfNeeded: c[11]),
                      Int8(truncatingIfNeeded: c[12]), Int8(truncatingIfNeeded: c[13]), Int8(truncatingIfNeeded: c[14]),
                      Int8(truncatingIfNeeded: c[15]))
    }

    /// c(a + b), c(a − b).
    @inline(always) static func add(_ a: Signed, _ b: Signed) -> Signed { clampNarrow(widen(a) &+ widen(b)) }
    @inline(always) static func subtract(_ a: Signed, _ b: Signed) -> Signed { clampNarrow(widen(a) &- widen(b)) }
    /// a >> n, arithmetic (RFC 6386's `>>` on signed char).
    @inline(always) static func shiftRight(_ a: Signed, _ n: Int16) -> Signed { clampNarrow(widen(a) &>> n) }

    /// |a − b| of unsigned lanes.
    @inline(always) static func distance(_ a: Bytes, _ b: Bytes) -> Bytes {
        let larger = a.replacing(with: b, where: b .> a), smaller = a.replacing(with: b, where: b .< a)
        return larger &- smaller
    }

    /// The larger of each lane pair.
    @inline(always) static func maximum(_ a: Bytes, _ b: Bytes) -> Bytes { a.replacing(with: b, where: b .> a) }

    /// a + b of unsigned lanes, saturating at 255.
    @inline(always) static func addUnsigned(_ a: Bytes, _ b: Bytes) -> Bytes {
        let sum = a &+ b
        return sum.replacing(with: Bytes(repeating: 255), where: sum .< a)
    }

    /// Lanes where `a <= limit` (unsigned).
    @inline(always) static func atMost(_ a: Bytes, _ limit: Bytes) -> SIMDMask<SIMD16<Int8>> {
        maximum(a, limit) .== limit
    }
}
