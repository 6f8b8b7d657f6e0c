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

    /// Converts one row of `width` pixels to RGB (`channels` 3) or RGBA with alpha 255 (`channels` 4).
    static func convertRow(y: UnsafePointer<UInt8>, u: UnsafePointer<UInt8>, v: UnsafePointer<UInt8>, width: Int,
                           channels: Int, out: UnsafeMutablePointer<UInt8>) {
        // 8 pixels at a time in SIMD lanes (the scalar formula below, lane by lane), then the rest.
        // All intermediate values stay within ±40 000: wrapping arithmetic is exact.
        var x = 0
        while x &+ 8 <= width {
            let yy = SIMD8<Int32>(truncatingIfNeeded: UnsafeRawPointer(y + x).loadUnaligned(as: SIMD8<UInt8>.self))
            let uu = SIMD8<Int32>(truncatingIfNeeded: UnsafeRawPointer(u + x).loadUnaligned(as: SIMD8<UInt8>.self))
            let vv = SIMD8<Int32>(truncatingIfNeeded: UnsafeRawPointer(v + x).loadUnaligned(as: SIMD8<UInt8>.self))
            let luma = (yy &* 19077) &>> 8
            let red = luma &+ ((vv &* 26149) &>> 8) &- 14234
            let green = luma &- ((uu &* 6419) &>> 8) &- ((vv &* 13320) &>> 8) &+ 8708
            let blue = luma &+ ((uu &* 33050) &>> 8) &- 17685
            let zero = SIMD8<Int32>(repeating: 0), top = SIMD8<Int32>(repeating: 255)
            let r = (red &>> 6).clamped(lowerBound: zero, upperBound: top)
            let g = (green &>> 6).clamped(lowerBound: zero, upperBound: top)
            let b = (blue &>> 6).clamped(lowerBound: zero, upperBound: top)
            let at = out + x &* channels
            for lane in 0..<8 {
                let pixel = at + lane &* channels
                pixel[0] = UInt8(truncatingIfNeeded: r[lane])
                pixel[1] = UInt8(truncatingIfNeeded: g[lane])
                pixel[2] = UInt8(truncatingIfNeeded: b[lane])
                if channels == 4 { pixel[3] = 255 }
            }
            x &+= 8
        }
        while x < width {
            let luma = multiplyHigh(Int(y[x]), 19077)
            let uu = Int(u[x]), vv = Int(v[x])
            let at = out + x &* channels
            at[0] = clip8(luma &+ multiplyHigh(vv, 26149) &- 14234)
            at[1] = clip8(luma &- multiplyHigh(uu, 6419) &- multiplyHigh(vv, 13320) &+ 8708)
            at[2] = clip8(luma &+ multiplyHigh(uu, 33050) &- 17685)
            if channels == 4 { at[3] = 255 }
            x &+= 1
        }
    }

    /// Upsamples one chroma row for output row `r`: `near` is the chroma row closest to it,
    /// `far` the other one it borrows a quarter from; writes `width` values to `out`.
    ///
    /// For output row 0 and the last row of an even height both are the same row. Pixel 0 is
    /// (3·near + far + 2) / 4; pixels 2x−1 and 2x mix the 2×2 chroma neighbourhood 9:3:3:1 via
    /// libwebp's two "diagonals".
    static func upsampleRow(near: UnsafePointer<UInt8>, far: UnsafePointer<UInt8>, width: Int, out: UnsafeMutablePointer<UInt8>) {
        out[0] = UInt8((3 * Int(near[0]) + Int(far[0]) + 2) >> 2)
        let lastPair = (width - 1) >> 1
        if lastPair >= 1 {
            for x in 1...lastPair {
                let nl = Int(near[x - 1]), n = Int(near[x]), fl = Int(far[x - 1]), f = Int(far[x])
                let average = nl + n + fl + f + 8
                let towardsLeft = (average + 2 * (n + fl)) >> 3
                let towardsRight = (average + 2 * (nl + f)) >> 3
                out[2 * x - 1] = UInt8((towardsLeft + nl) >> 1)
                out[2 * x] = UInt8((towardsRight + n) >> 1)
            }
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
