/// The full inverse DCT in 16-bit lanes (the idea of libwebp's `Transform_SSE2`), exact for the
/// coefficients it is given: ``VP8Transform/inverseDCT(_:_:stride:)`` stays as the careful twin
/// and takes every block with a coefficient outside ±``laneLimit`` (TransformTwinTests compares
/// the two).
extension VP8Transform {
    typealias Wide = VP8Lanes.Wide

    /// Largest coefficient magnitude the 16-bit lanes take exactly: with |c| ≤ 2 048 a vertical
    /// result stays below 3.9 · 2 048 and a horizontal one below 3.9² · 2 048 + 4 < 32 768, and
    /// the multipliers' inputs below 25 000 (where `mul1`'s 1.31 · x still fits). Valid streams
    /// rarely exceed it; hostile ones go to the scalar transform.
    static let laneLimit: Int16 = 2048

    /// `mul1` of 8 lanes: `(x * 20091) >> 16 + x` (one `pmulhw` and an add).
    @inline(__always) static func mul1(_ x: Wide) -> Wide { VP8Lanes.multiplyHigh(x, 20091) &+ x }
    /// `mul2` of 8 lanes: `(x * 35468) >> 16`, as `(x * (35468 − 65536)) >> 16 + x` since 35 468
    /// does not fit Int16 (exact: the added `x * 65536 >> 16` is `x`).
    @inline(__always) static func mul2(_ x: Wide) -> Wide { VP8Lanes.multiplyHigh(x, -30068) &+ x }

    /// Whether all 16 coefficients of a block (rows 0–1 in `low`, rows 2–3 in `high`) are within
    /// ±``laneLimit``.
    @inline(__always)
    static func fitsLanes(_ low: Wide, _ high: Wide) -> Bool {
        let limit = Wide(repeating: laneLimit)
        let outside = (low .> limit) .| (low .< 0 &- limit) .| (high .> limit) .| (high .< 0 &- limit)
        return !any(outside)
    }

    /// Adds the inverse DCT of `input` to the 4×4 pixels at `dst`: in lanes when the
    /// coefficients allow, else by the scalar ``inverseDCT(_:_:stride:)``.
    @inline(__always)
    static func inverseDCTFast(_ input: UnsafePointer<Int16>, _ dst: UnsafeMutablePointer<UInt8>, stride: Int) {
        let raw = UnsafeRawPointer(input)
        let rows01 = raw.loadUnaligned(as: Wide.self), rows23 = raw.loadUnaligned(fromByteOffset: 16, as: Wide.self)
        guard fitsLanes(rows01, rows23) else { return inverseDCT(input, dst, stride: stride) }
        inverseDCTLanes(rows01, rows23, dst, stride: stride)
    }

    /// The lane transform of rows 0–1 (`rows01`) and 2–3 (`rows23`) of a block within
    /// ±``laneLimit``, added to `dst`.
    @inline(__always)
    static func inverseDCTLanes(_ rows01: Wide, _ rows23: Wide, _ dst: UnsafeMutablePointer<UInt8>, stride: Int) {
        // Vertical pass on whole rows: lane j of each result is column j (lanes 4–7 unused).
        let t = pass(rows01, highDown(rows01), rows23, highDown(rows23), rounding: 0)
        // Transpose: lanes 0–3 of x0…x3 are then the columns' results k = 0…3 for rows 0–3.
        let (p, q) = transpose(t.0, t.1, t.2, t.3)
        // Horizontal pass, all four rows at once.
        let o = pass(p, highDown(p), q, highDown(q), rounding: 4)
        // Back to rows: rows 0–1 and rows 2–3 of the 16-bit deltas.
        let (deltas01, deltas23) = transpose(o.0 &>> 3, o.1 &>> 3, o.2 &>> 3, o.3 &>> 3)
        addRows(deltas01, dst, dst + stride)
        addRows(deltas23, dst + 2 &* stride, dst + 3 &* stride)
    }

    /// One 1-D pass of the scalar transform on lanes (`rounding` added to x0).
    @inline(__always)
    static func pass(_ x0: Wide, _ x1: Wide, _ x2: Wide, _ x3: Wide, rounding: Int16) -> (Wide, Wide, Wide, Wide) {
        let dc = x0 &+ rounding
        let a = dc &+ x2, b = dc &- x2
        let c = mul2(x1) &- mul1(x3), d = mul1(x1) &+ mul2(x3)
        return (a &+ d, b &+ c, b &- c, a &- d)
    }

    /// ``inverseDCOnly(_:_:stride:)`` in lanes: the one delta (−4 096…4 095, so a pixel plus it
    /// fits Int16) added to two rows at a time.
    @inline(__always)
    static func inverseDCOnlyLanes(_ input: UnsafePointer<Int16>, _ dst: UnsafeMutablePointer<UInt8>, stride: Int) {
        let delta = Wide(repeating: Int16(truncatingIfNeeded: (Int(input[0]) &+ 4) &>> 3))
        addRows(delta, dst, dst + stride)
        addRows(delta, dst + 2 &* stride, dst + 3 &* stride)
    }

    /// ``inverseThreeCoefficients(_:_:stride:)`` in lanes when coefficients 0, 1 and 4 are
    /// within ±``laneLimit`` (every sum then fits Int16), else the scalar one: row i gets
    /// `a ± d4/c4`, column j `± d1/c1`, both computed once.
    @inline(__always)
    static func inverseThreeCoefficientsFast(_ input: UnsafePointer<Int16>, _ dst: UnsafeMutablePointer<UInt8>, stride: Int) {
        let c0 = input[0], c1 = input[1], c4 = input[4], limit = laneLimit
        guard c0 >= -limit, c0 <= limit, c1 >= -limit, c1 <= limit, c4 >= -limit, c4 <= limit else {
            return inverseThreeCoefficients(input, dst, stride: stride)
        }
        let a = Int(c0) &+ 4
        let rowC = mul2(Int(c4)), rowD = mul1(Int(c4)), columnC = Int16(mul2(Int(c1))), columnD = Int16(mul1(Int(c1)))
        let columns = Wide(columnD, columnC, 0 &- columnC, 0 &- columnD, columnD, columnC, 0 &- columnC, 0 &- columnD)
        @inline(__always) func rows(_ first: Int, _ second: Int) -> Wide {
            let f = Int16(truncatingIfNeeded: first), s = Int16(truncatingIfNeeded: second)
            return Wide(f, f, f, f, s, s, s, s)
        }
        addRows((rows(a &+ rowD, a &+ rowC) &+ columns) &>> 3, dst, dst + stride)
        addRows((rows(a &- rowC, a &- rowD) &+ columns) &>> 3, dst + 2 &* stride, dst + 3 &* stride)
    }

    /// Lanes 4–7 moved to 0–3 (`pshufd`).
    @inline(__always) static func highDown(_ x: Wide) -> Wide {
        let halves = unsafeBitCast(x, to: SIMD2<UInt64>.self)
        return unsafeBitCast(SIMD2(halves[1], halves[1]), to: Wide.self)
    }

    /// The 4×4 transpose of lanes 0–3 of `a`…`d`: (a0 b0 c0 d0 a1 b1 c1 d1, a2 b2 c2 d2 a3 b3 c3 d3).
    @inline(__always) static func transpose(_ a: Wide, _ b: Wide, _ c: Wide, _ d: Wide) -> (Wide, Wide) {
        @inline(__always) func words(_ x: Wide) -> SIMD8<UInt16> { unsafeBitCast(x, to: SIMD8<UInt16>.self) }
        let ab = unsafeBitCast(VP8Lanes.zipLow(words(a), words(b)), to: SIMD4<UInt32>.self)
        let cd = unsafeBitCast(VP8Lanes.zipLow(words(c), words(d)), to: SIMD4<UInt32>.self)
        return (unsafeBitCast(SIMD4(ab[0], cd[0], ab[1], cd[1]), to: Wide.self),
                unsafeBitCast(SIMD4(ab[2], cd[2], ab[3], cd[3]), to: Wide.self))
    }

    /// Adds 16-bit `deltas` (lanes 0–3 to the 4 pixels at `first`, 4–7 to those at `second`),
    /// clamping to 0…255.
    @inline(__always) static func addRows(_ deltas: Wide, _ first: UnsafeMutablePointer<UInt8>, _ second: UnsafeMutablePointer<UInt8>) {
        let a = UnsafeRawPointer(first).loadUnaligned(as: UInt32.self), b = UnsafeRawPointer(second).loadUnaligned(as: UInt32.self)
        let bytes = unsafeBitCast(SIMD2<UInt32>(a, b), to: SIMD8<UInt8>.self)
        let pixels = Wide(Int16(bytes[0]), Int16(bytes[1]), Int16(bytes[2]), Int16(bytes[3]),
                          Int16(bytes[4]), Int16(bytes[5]), Int16(bytes[6]), Int16(bytes[7]))
        let sum = VP8Lanes.clamp(pixels &+ deltas, 0, 255)
        // Narrow: the low byte of each 16-bit lane (pand + packuswb).
        let w = unsafeBitCast(sum, to: SIMD8<UInt16>.self)
        let out = SIMD8<UInt8>(UInt8(truncatingIfNeeded: w[0]), UInt8(truncatingIfNeeded: w[1]), UInt8(truncatingIfNeeded: w[2]),
                               UInt8(truncatingIfNeeded: w[3]), UInt8(truncatingIfNeeded: w[4]), UInt8(truncatingIfNeeded: w[5]),
                               UInt8(truncatingIfNeeded: w[6]), UInt8(truncatingIfNeeded: w[7]))
        let halves = unsafeBitCast(out, to: SIMD2<UInt32>.self)
        UnsafeMutableRawPointer(first).storeBytes(of: halves[0], as: UInt32.self)
        UnsafeMutableRawPointer(second).storeBytes(of: halves[1], as: UInt32.self)
    }
}
