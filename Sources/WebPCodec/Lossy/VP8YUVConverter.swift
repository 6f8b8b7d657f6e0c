/// Turns decoded Y, U, V planes into RGBA rows the way libwebp's default output does: "fancy"
/// upsampling of the 4:2:0 chroma (a 9-3-3-1 filter, `UpsampleRgbaLinePair`) and its 14-bit
/// fixed-point BT.601 conversion (`VP8YuvToRgb`, yuv.h).
enum VP8YUVConverter {
    /// Operands are 8-bit samples and 16-bit coefficients: the product cannot overflow.
    @inline(__always) static func multiplyHigh(_ v: Int, _ coefficient: Int) -> Int { (v &* coefficient) &>> 8 }

    /// libwebp's `VP8Clip8` (the value has 6 fractional bits): `v >> 6` clamped to 0...255, which
    /// is what its test `(v & ~16383) == 0 ? v >> 6 : (v < 0 ? 0 : 255)` computes, without a branch.
    @inline(__always) static func clip8(_ v: Int) -> UInt8 {
        UInt8(clamping: v &>> 6)
    }

    /// Converts one row of `width` pixels to RGB (`channels` 3) or RGBA (`channels` 4) with the
    /// row's `alpha` bytes, or 255 without them.
    static func convertRow(y: UnsafePointer<UInt8>, u: UnsafePointer<UInt8>, v: UnsafePointer<UInt8>, width: Int,
                           channels: Int, alpha: UnsafePointer<UInt8>? = nil, out: UnsafeMutablePointer<UInt8>) {
        var x = 0
        // RGB blocks store 1 byte past their 48: a block needs a pixel after it.
        let blockEnd = channels == 4 ? width : width &- 1
        while x &+ 16 <= blockEnd {
            convert16(y: y + x, u: u + x, v: v + x, channels: channels, alpha: alpha.map { $0 + x }, out: out + x &* channels)
            x &+= 16
        }
        convertScalar(y: y, u: u, v: v, from: x, to: width, channels: channels, alpha: alpha, out: out)
    }

    /// The scalar formula for pixels `start ..< end` (the careful twin of ``convert16``).
    static func convertScalar(y: UnsafePointer<UInt8>, u: UnsafePointer<UInt8>, v: UnsafePointer<UInt8>,
                              from start: Int, to end: Int, channels: Int, alpha: UnsafePointer<UInt8>? = nil,
                              out: UnsafeMutablePointer<UInt8>) {
        var x = start
        while x < end {
            let luma = multiplyHigh(Int(y[x]), 19077)
            let uu = Int(u[x]), vv = Int(v[x])
            let at = out + x &* channels
            at[0] = clip8(luma &+ multiplyHigh(vv, 26149) &- 14234)
            at[1] = clip8(luma &- multiplyHigh(uu, 6419) &- multiplyHigh(vv, 13320) &+ 8708)
            at[2] = clip8(luma &+ multiplyHigh(uu, 33050) &- 17685)
            if channels == 4 { at[3] = alpha?[x] ?? 255 }
            x &+= 1
        }
    }

    /// `(v * coefficient) >> 8` for 8-bit `v` given as `v << 8` in 16-bit lanes: the high half of
    /// the 32-bit product `(v << 8) * coefficient` is exactly that (libwebp's `MultHi` trick), one
    /// `pmulhuw` per eight lanes.
    @inline(__always)
    static func multiplyHigh(scaled v: SIMD8<UInt16>, _ coefficient: UInt16) -> SIMD8<UInt16> {
        VP8Lanes.multiplyHigh(v, SIMD8(repeating: coefficient))
    }

    /// The formula of ``convertScalar`` for eight pixels whose samples come as `value << 8` in
    /// 16-bit lanes. Ranges: red's sum lies in −14 234…30 811 and green's in −10 954…27 707, so
    /// wrapping UInt16 arithmetic read back as Int16 is exact; blue's reaches 34 236, so it is
    /// offset by 277·64 to stay unsigned and the offset is taken off after the shift.
    @inline(__always)
    static func convert8(scaled y: SIMD8<UInt16>, _ u: SIMD8<UInt16>, _ v: SIMD8<UInt16>)
        -> (r: VP8Lanes.Wide, g: VP8Lanes.Wide, b: VP8Lanes.Wide) {
        let luma = multiplyHigh(scaled: y, 19077)
        let red = luma &+ multiplyHigh(scaled: v, 26149) &- 14234
        let green = luma &- multiplyHigh(scaled: u, 6419) &- multiplyHigh(scaled: v, 13320) &+ 8708
        let blue = (luma &+ multiplyHigh(scaled: u, 33050) &+ 43) &>> 6
        return (unsafeBitCast(red, to: VP8Lanes.Wide.self) &>> 6, unsafeBitCast(green, to: VP8Lanes.Wide.self) &>> 6,
                unsafeBitCast(blue, to: VP8Lanes.Wide.self) &- 277)
    }

    /// Sixteen pixels: even and odd lanes converted separately, joined (and clamped to 0…255)
    /// into one vector per channel, then packed into pixels with interleaves (SSE2 has no byte
    /// shuffle): red with green and blue with alpha byte by byte, then those 16-bit pairs into
    /// 4-byte pixels. The high halves are moved down before their byte interleave (a high-byte
    /// interleave was scalarised, see ``VP8Lanes/transpose(_:)``), and the clamp is the join's
    /// pack (a compare-and-select clamp on its own was scalarised too). RGB is stored 4 bytes per pixel, overlapping.
    @inline(__always)
    static func convert16(y: UnsafePointer<UInt8>, u: UnsafePointer<UInt8>, v: UnsafePointer<UInt8>, channels: Int,
                          alpha: UnsafePointer<UInt8>?, out: UnsafeMutablePointer<UInt8>) {
        typealias Bytes = SIMD16<UInt8>
        typealias Words = SIMD8<UInt16>
        // Even and odd samples as `value << 8` (see ``multiplyHigh(scaled:_:)``).
        @inline(__always) func halves(_ p: UnsafePointer<UInt8>) -> (even: SIMD8<UInt16>, odd: SIMD8<UInt16>) {
            let words = UnsafeRawPointer(p).loadUnaligned(as: SIMD8<UInt16>.self)
            return (words &<< 8, words & 0xFF00)
        }
        @inline(__always) func highDown(_ x: Bytes) -> Bytes {
            let pair = unsafeBitCast(x, to: SIMD2<UInt64>.self)
            return unsafeBitCast(SIMD2(pair[1], pair[1]), to: Bytes.self)
        }
        @inline(__always) func pairs(_ a: Bytes, _ b: Bytes) -> (low: Words, high: Words) {
            (unsafeBitCast(VP8Lanes.zipLow(a, b), to: Words.self), unsafeBitCast(VP8Lanes.zipLow(highDown(a), highDown(b)), to: Words.self))
        }
        let yy = halves(y), uu = halves(u), vv = halves(v)
        let even = convert8(scaled: yy.even, uu.even, vv.even), odd = convert8(scaled: yy.odd, uu.odd, vv.odd)
        let red = VP8Lanes.join(even.r, odd.r), green = VP8Lanes.join(even.g, odd.g), blue = VP8Lanes.join(even.b, odd.b)
        guard channels == 4 else {
            // RGB: four-byte pixels with a zero fourth byte (the RGBA interleaves), each stored as
            // 4 bytes 3 apart, the next store covering the spare byte. The last store reaches 1
            // byte past the 48: the caller leaves room.
            let redGreen = pairs(red, green), blueZero = pairs(blue, Bytes(repeating: 0))
            let raw = UnsafeMutableRawPointer(out)
            @inline(__always) func store(_ quad: Words, at offset: Int) {
                let pixels = unsafeBitCast(quad, to: SIMD4<UInt32>.self)
                raw.storeBytes(of: pixels[0], toByteOffset: offset, as: UInt32.self)
                raw.storeBytes(of: pixels[1], toByteOffset: offset &+ 3, as: UInt32.self)
                raw.storeBytes(of: pixels[2], toByteOffset: offset &+ 6, as: UInt32.self)
                raw.storeBytes(of: pixels[3], toByteOffset: offset &+ 9, as: UInt32.self)
            }
            store(VP8Lanes.zipLow(redGreen.low, blueZero.low), at: 0)
            store(VP8Lanes.zipHigh(redGreen.low, blueZero.low), at: 12)
            store(VP8Lanes.zipLow(redGreen.high, blueZero.high), at: 24)
            store(VP8Lanes.zipHigh(redGreen.high, blueZero.high), at: 36)
            return
        }
        let opacity = alpha.map { UnsafeRawPointer($0).loadUnaligned(as: Bytes.self) } ?? Bytes(repeating: 255)
        let redGreen = pairs(red, green), blueAlpha = pairs(blue, opacity)
        let raw = UnsafeMutableRawPointer(out)
        raw.storeBytes(of: VP8Lanes.zipLow(redGreen.low, blueAlpha.low), toByteOffset: 0, as: Words.self)
        raw.storeBytes(of: VP8Lanes.zipHigh(redGreen.low, blueAlpha.low), toByteOffset: 16, as: Words.self)
        raw.storeBytes(of: VP8Lanes.zipLow(redGreen.high, blueAlpha.high), toByteOffset: 32, as: Words.self)
        raw.storeBytes(of: VP8Lanes.zipHigh(redGreen.high, blueAlpha.high), toByteOffset: 48, as: Words.self)
    }

    /// Upsamples one chroma row for output row `r`: `near` is the chroma row closest to it,
    /// `far` the other one it borrows a quarter from; writes `width` values to `out`.
    ///
    /// For output row 0 and the last row of an even height both are the same row. Pixel 0 is
    /// (3·near + far + 2) / 4; pixels 2x−1 and 2x mix the 2×2 chroma neighbourhood 9:3:3:1 via
    /// libwebp's two "diagonals". Eight pairs at a time in 16-bit lanes, the rest by
    /// ``upsampleScalar(near:far:pairs:width:out:)``.
    static func upsampleRow(near: UnsafePointer<UInt8>, far: UnsafePointer<UInt8>, width: Int, out: UnsafeMutablePointer<UInt8>) {
        let lastPair = (width &- 1) &>> 1
        var x = 1
        while x &+ 7 <= lastPair {
            let nl = VP8Lanes.widen(near + (x &- 1)), n = VP8Lanes.widen(near + x)
            let fl = VP8Lanes.widen(far + (x &- 1)), f = VP8Lanes.widen(far + x)
            let average = nl &+ n &+ fl &+ f &+ 8
            let towardsLeft = (average &+ (n &+ fl) &* 2) &>> 3
            let towardsRight = (average &+ (nl &+ f) &* 2) &>> 3
            let values = VP8Lanes.join((towardsLeft &+ nl) &>> 1, (towardsRight &+ n) &>> 1)
            UnsafeMutableRawPointer(out + (2 &* x &- 1)).storeBytes(of: values, as: SIMD16<UInt8>.self)
            x &+= 8
        }
        upsampleScalar(near: near, far: far, pairs: x...max(x, lastPair), width: width, out: out)
    }

    /// ``upsampleRow(near:far:width:out:)`` for both rows of a pair, 2k − 1 (`upper`) and 2k
    /// (`lower`), which mix the same chroma rows k − 1 (`top`) and k (`bottom`) with near and far
    /// swapped: the loads, the 2×2 sum and both diagonals are shared (the upper row's "towards the
    /// left" diagonal is the lower row's "towards the right" one and vice versa).
    static func upsamplePair(top: UnsafePointer<UInt8>, bottom: UnsafePointer<UInt8>, width: Int,
                             upper: UnsafeMutablePointer<UInt8>, lower: UnsafeMutablePointer<UInt8>) {
        let lastPair = (width &- 1) &>> 1
        var x = 1
        while x &+ 7 <= lastPair {
            let tl = VP8Lanes.widen(top + (x &- 1)), t = VP8Lanes.widen(top + x)
            let bl = VP8Lanes.widen(bottom + (x &- 1)), b = VP8Lanes.widen(bottom + x)
            let average = tl &+ t &+ bl &+ b &+ 8
            let diagonal = (average &+ (t &+ bl) &* 2) &>> 3, antidiagonal = (average &+ (tl &+ b) &* 2) &>> 3
            let at = 2 &* x &- 1
            UnsafeMutableRawPointer(upper + at).storeBytes(
                of: VP8Lanes.join((diagonal &+ tl) &>> 1, (antidiagonal &+ t) &>> 1), as: SIMD16<UInt8>.self)
            UnsafeMutableRawPointer(lower + at).storeBytes(
                of: VP8Lanes.join((antidiagonal &+ bl) &>> 1, (diagonal &+ b) &>> 1), as: SIMD16<UInt8>.self)
            x &+= 8
        }
        upsampleScalar(near: top, far: bottom, pairs: x...max(x, lastPair), width: width, out: upper)
        upsampleScalar(near: bottom, far: top, pairs: x...max(x, lastPair), width: width, out: lower)
    }

    /// The scalar upsampler for the pairs in `pairs` (those ≤ the last pair), plus the first and
    /// (even width) last pixel; with `pairs` starting at 1 it does the whole row (the careful twin).
    static func upsampleScalar(near: UnsafePointer<UInt8>, far: UnsafePointer<UInt8>, pairs: ClosedRange<Int>, width: Int,
                               out: UnsafeMutablePointer<UInt8>) {
        out[0] = UInt8((3 * Int(near[0]) + Int(far[0]) + 2) >> 2)
        let lastPair = (width - 1) >> 1
        for x in pairs where x >= 1 && x <= lastPair {
            let nl = Int(near[x - 1]), n = Int(near[x]), fl = Int(far[x - 1]), f = Int(far[x])
            let average = nl + n + fl + f + 8
            let towardsLeft = (average + 2 * (n + fl)) >> 3
            let towardsRight = (average + 2 * (nl + f)) >> 3
            out[2 * x - 1] = UInt8((towardsLeft + nl) >> 1)
            out[2 * x] = UInt8((towardsRight + n) >> 1)
        }
        if width & 1 == 0 {
            out[width - 1] = UInt8((3 * Int(near[lastPair]) + Int(far[lastPair]) + 2) >> 2)
        }
    }

    /// The chroma rows (near, far) that output row `r` of an image `height` rows tall uses
    /// (libwebp's `EmitFancyRGB` pairing: rows 2k−1 and 2k share chroma rows k−1 and k).
    static func chromaRows(forRow r: Int, chromaHeight: Int) -> (near: Int, far: Int) {
        if r == 0 { return (0, 0) }
        let last = chromaHeight - 1
        if r & 1 == 1 { return ((r - 1) >> 1, min((r + 1) >> 1, last)) }
        return (r >> 1, (r >> 1) - 1)
    }
}
