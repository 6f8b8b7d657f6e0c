/// Eight 16-bit lanes and the few operations on them that compile to single SSE2 instructions
/// (`punpcklwd`, `pmaddwd`, `packssdw`, `packuswb`) and to their NEON counterparts: the building
/// blocks of ``EightLaneInverseDCT``.
///
/// They are written the way LLVM recognises: lane-wise initialisers of interleaved lanes,
/// sign-extended halves multiplied by 16-bit constants, truncations of values known to fit. Other
/// spellings (`.clamped`, `pointwiseMin/Max`, generic `SIMDn(truncatingIfNeeded:)`, shuffles of
/// 16-bit halves) become out-of-line calls or lane-by-lane code on Linux.
enum SixteenBitLanes {
    /// Eight 16-bit values.
    typealias Row = SIMD8<Int16>
    /// Four 32-bit values: half of a row's products.
    typealias Half = SIMD4<Int32>
    /// A row of 32-bit values as its lanes 0...3 and 4...7.
    typealias Wide = (low: Half, high: Half)

    /// The low 16 bits of each of `low`'s and `high`'s lanes, in order (SSE2: a shift pair and a pack).
    @inline(__always)
    static func narrowed(_ low: Half, _ high: Half) -> Row {
        // Sign-extending the low halves first tells the compiler the values fit, so the lane-wise
        // truncation becomes one `packssdw` (a shuffle of 16-bit halves would be scalarised).
        let a = (low &<< 16) &>> 16, b = (high &<< 16) &>> 16
        return Row(Int16(truncatingIfNeeded: a[0]), Int16(truncatingIfNeeded: a[1]), Int16(truncatingIfNeeded: a[2]),
                   Int16(truncatingIfNeeded: a[3]), Int16(truncatingIfNeeded: b[0]), Int16(truncatingIfNeeded: b[1]),
                   Int16(truncatingIfNeeded: b[2]), Int16(truncatingIfNeeded: b[3]))
    }

    /// The 64 values of `block` sign-extended into `output`.
    @inline(__always)
    static func widen(_ block: UnsafePointer<Int16>, into output: UnsafeMutablePointer<Int32>) {
        let input = UnsafeRawPointer(block), out = UnsafeMutableRawPointer(output)
        for r in 0..<8 {
            let row = input.loadUnaligned(fromByteOffset: r * 16, as: Row.self)
            out.storeBytes(of: SIMD8<Int32>(truncatingIfNeeded: row), toByteOffset: r * 32, as: SIMD8<Int32>.self)
        }
    }

    /// Samples `a` and `b` clamped to 0...255, as 16 bytes (`a`'s first; SSE2 `packuswb`).
    @inline(__always)
    static func clampedBytes(_ a: Row, _ b: Row) -> SIMD16<UInt8> {
        // Spelled with shifts and masks (max(v, 0) = v & ~(v >> 15); v | ((255 − v) >> 15) has
        // low byte 255 above 255): LLVM folds all of it into one `packuswb`. Comparisons and
        // `replacing(with:where:)` instead get narrowed to bytes before the selects, about 14
        // instructions per pair.
        let x0 = a & ~(a &>> 15), y0 = b & ~(b &>> 15)
        let x = (x0 | ((255 &- x0) &>> 15)) & 255, y = (y0 | ((255 &- y0) &>> 15)) & 255
        return SIMD16<UInt8>(UInt8(truncatingIfNeeded: x[0]), UInt8(truncatingIfNeeded: x[1]), UInt8(truncatingIfNeeded: x[2]),
                             UInt8(truncatingIfNeeded: x[3]), UInt8(truncatingIfNeeded: x[4]), UInt8(truncatingIfNeeded: x[5]),
                             UInt8(truncatingIfNeeded: x[6]), UInt8(truncatingIfNeeded: x[7]), UInt8(truncatingIfNeeded: y[0]),
                             UInt8(truncatingIfNeeded: y[1]), UInt8(truncatingIfNeeded: y[2]), UInt8(truncatingIfNeeded: y[3]),
                             UInt8(truncatingIfNeeded: y[4]), UInt8(truncatingIfNeeded: y[5]), UInt8(truncatingIfNeeded: y[6]),
                             UInt8(truncatingIfNeeded: y[7]))
    }

    /// Lanes 0...3 of `a` and `b` interleaved (`punpcklwd`).
    @inline(__always)
    static func interleavedLow(_ a: Row, _ b: Row) -> Row { Row(a[0], b[0], a[1], b[1], a[2], b[2], a[3], b[3]) }

    /// Lanes 4...7 of `a` and `b` interleaved (`punpckhwd`).
    @inline(__always)
    static func interleavedHigh(_ a: Row, _ b: Row) -> Row { Row(a[4], b[4], a[5], b[5], a[6], b[6], a[7], b[7]) }

    /// Lane i: `pairs[2i] · c0 + pairs[2i + 1] · c1` in 32 bits (`pmaddwd`).
    @inline(__always)
    static func multiplyAdd(_ pairs: Row, _ c0: Int32, _ c1: Int32) -> Half {
        let w = unsafeBitCast(pairs, to: Half.self)
        return ((w &<< 16) &>> 16) &* c0 &+ (w &>> 16) &* c1
    }

    /// `a · c0 + b · c1`, lane by lane, in 32 bits.
    @inline(__always)
    static func products(_ a: Row, _ b: Row, _ c0: Int32, _ c1: Int32) -> Wide {
        (multiplyAdd(interleavedLow(a, b), c0, c1), multiplyAdd(interleavedHigh(a, b), c0, c1))
    }

    @inline(__always)
    static func sum(_ a: Wide, _ b: Wide) -> Wide { (a.low &+ b.low, a.high &+ b.high) }

    @inline(__always)
    static func difference(_ a: Wide, _ b: Wide) -> Wide { (a.low &- b.low, a.high &- b.high) }
}
