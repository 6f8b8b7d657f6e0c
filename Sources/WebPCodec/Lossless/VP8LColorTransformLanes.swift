/// The inverse colour transform (RFC 9649 section 4.2) on four pixels at once, in 16-bit lanes.
///
/// Four ARGB words read as eight Int16 lanes hold, per pixel, `green << 8 | blue` (even lane)
/// and `alpha << 8 | red` (odd lane). An arithmetic shift right by 8 of the even lane is the
/// signed green byte; spread to both lanes of its pixel and multiplied by (g2b, g2r), shifted
/// right by 5, it gives both first deltas at once; the second step multiplies the new red
/// (signed, spread the same way) by r2b, kept for blue. Products of two signed bytes stay within
/// ±16 384, so 16-bit lanes hold them exactly; only the low byte of each sum is kept, as in
/// the scalar formula. Spreads and shifts lower to pshuflw/pshufhw and psraw/psllw, the
/// products to pmullw (checked against ``VP8LInverseTransforms/undoColorTransformScalar``).
struct VP8LColorTransformLanes {
    typealias Lanes = SIMD8<Int16>
    /// (g2b, g2r) per pixel.
    let greenMultipliers: Lanes
    /// r2b in every lane.
    let redMultipliers: Lanes

    /// The multipliers of one transform block: g2r in bits 0–7, g2b in 8–15, r2b in 16–23.
    init(element: UInt32) {
        let greenToRed = Int16(Int8(truncatingIfNeeded: element))
        let greenToBlue = Int16(Int8(truncatingIfNeeded: element >> 8))
        let redToBlue = Int16(Int8(truncatingIfNeeded: element >> 16))
        greenMultipliers = Lanes(greenToBlue, greenToRed, greenToBlue, greenToRed, greenToBlue, greenToRed, greenToBlue, greenToRed)
        redMultipliers = Lanes(repeating: redToBlue)
    }

    /// Each pixel's even lane in both of its lanes.
    @inline(__always) static func spreadEven(_ a: Lanes) -> Lanes { Lanes(a[0], a[0], a[2], a[2], a[4], a[4], a[6], a[6]) }
    /// Each pixel's odd lane in both of its lanes.
    @inline(__always) static func spreadOdd(_ a: Lanes) -> Lanes { Lanes(a[1], a[1], a[3], a[3], a[5], a[5], a[7], a[7]) }

    /// Undoes the transform of the four pixels at `pixels`, in place.
    @inline(__always)
    func undo(_ pixels: UnsafeMutablePointer<UInt32>) {
        let raw = UnsafeMutableRawPointer(pixels)
        let v = unsafeBitCast(raw.loadUnaligned(as: SIMD4<UInt32>.self), to: Lanes.self)
        let byte = Lanes(repeating: 0xFF)
        let green = Self.spreadEven(v &>> 8)
        let first = ((v & byte) &+ ((green &* greenMultipliers) &>> 5)) & byte   // blue + δ(g2b, g), new red
        let newRed = Self.spreadOdd(first &<< 8) &>> 8
        // δ(r2b, new red) is computed in every lane and kept for blue only (with a multiplier
        // known to be 0 in the red lanes, LLVM split the shift into lane-by-lane code).
        let blueOnly = Lanes(-1, 0, -1, 0, -1, 0, -1, 0)
        let second = (first &+ (((newRed &* redMultipliers) &>> 5) & blueOnly)) & byte  // blue + δ(r2b, new red)
        let result = (v & Lanes(repeating: Int16(bitPattern: 0xFF00))) | second
        raw.storeBytes(of: unsafeBitCast(result, to: SIMD4<UInt32>.self), as: SIMD4<UInt32>.self)
    }
}
