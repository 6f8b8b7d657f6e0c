/// libjpeg's fixed-point YCbCr → RGB tables (jdcolor.c `build_ycc_rgb_table`, JFIF / ITU-R BT.601):
///
///     R = Y + 1.40200 · Cr'        G = Y − 0.34414 · Cb' − 0.71414 · Cr'        B = Y + 1.77200 · Cb'
///
/// with Cb' = Cb − 128. Constants are FIX(x) = round(x · 2^16) (91881, 116130, 22554, 46802); R and B terms are rounded per entry, the two G
/// terms are summed first and rounded once (`crToG + cbToG` includes the 1/2), then shifted by 16.
final class YCbCrTables: @unchecked Sendable {
    /// Fraction bits of the fixed-point constants (SCALEBITS).
    static let scaleBits: Int32 = 16

    /// Built once; immutable afterwards.
    static let shared = YCbCrTables()

    /// FIX(1.40200): Cr' → R, scaled by 2^16.
    static let crToRFactor: Int32 = 91881
    /// FIX(1.77200): Cb' → B.
    static let cbToBFactor: Int32 = 116130
    /// −FIX(0.34414): Cb' → G.
    static let cbToGFactor: Int32 = -22554
    /// −FIX(0.71414): Cr' → G.
    static let crToGFactor: Int32 = -46802

    /// round(1.402 · Cr').
    let crToR: UnsafeMutablePointer<Int32>
    /// round(1.772 · Cb').
    let cbToB: UnsafeMutablePointer<Int32>
    /// −0.71414 · Cr' · 2^16.
    let crToG: UnsafeMutablePointer<Int32>
    /// −0.34414 · Cb' · 2^16 + 2^15.
    let cbToG: UnsafeMutablePointer<Int32>

    private init() {
        let half: Int32 = 1 << 15
        crToR = .allocate(capacity: 256)
        cbToB = .allocate(capacity: 256)
        crToG = .allocate(capacity: 256)
        cbToG = .allocate(capacity: 256)
        for i in 0..<256 {
            let x = Int32(i) - 128
            crToR[i] = (Self.crToRFactor * x + half) >> Self.scaleBits
            cbToB[i] = (Self.cbToBFactor * x + half) >> Self.scaleBits
            crToG[i] = Self.crToGFactor * x
            cbToG[i] = Self.cbToGFactor * x + half
        }
    }
}
