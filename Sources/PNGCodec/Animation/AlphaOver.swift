/// The "over" operator of APNG `APNG_BLEND_OP_OVER` on non-premultiplied RGBA (PNG 2nd edition,
/// 12.4 "Alpha channel creation" / the APNG spec's reference to PNG alpha compositing):
///
/// ```
/// αo = αs + αd (1 − αs)
/// Co = (αs Cs + αd (1 − αs) Cd) / αo        (Co = 0 where αo = 0)
/// ```
///
/// computed exactly in integers and rounded to nearest once. With `M` the largest sample (255 or
/// 65535) and samples as integers: `A = αs·M + αd·(M − αs)` is `αo·M·M`, so
/// `αo = round(A / M)` and `Co = round((Cs·αs·M + Cd·αd·(M − αs)) / A)`. Special cases fall out
/// of the formula and are taken early: αs = M gives the source, αs = 0 leaves the canvas,
/// αd = 0 gives the source. `TestImages/apng/make_fixtures.py` computes the same with Python
/// integers as the reference.
enum AlphaOver {
    /// Blends `count` rgba8 pixels from `source` over `canvas`.
    static func blendRow8(_ source: UnsafePointer<UInt8>, over canvas: UnsafeMutablePointer<UInt8>, count: Int) {
        for index in 0..<count {
            let s = source + 4 * index, d = canvas + 4 * index
            let sourceAlpha = UInt32(s[3])
            if sourceAlpha == 0 { continue }
            let canvasAlpha = UInt32(d[3])
            if sourceAlpha == 255 || canvasAlpha == 0 {
                d[0] = s[0]; d[1] = s[1]; d[2] = s[2]; d[3] = s[3]
                continue
            }
            // Bounds: canvasWeight ≤ 255·254, total = αo·255² ≤ 65025, each numerator ≤ 255·total < 2^24.
            let canvasWeight = canvasAlpha * (255 - sourceAlpha)
            let total = sourceAlpha * 255 + canvasWeight
            for c in 0..<3 {
                let numerator = UInt32(s[c]) * sourceAlpha * 255 + UInt32(d[c]) * canvasWeight
                d[c] = UInt8(truncatingIfNeeded: (2 * numerator + total) / (2 * total))
            }
            d[3] = UInt8(truncatingIfNeeded: (total + 127) / 255)
        }
    }

    /// Blends `count` rgba16 pixels (big-endian samples) from `source` over `canvas`.
    static func blendRow16(_ source: UnsafePointer<UInt8>, over canvas: UnsafeMutablePointer<UInt8>, count: Int) {
        @inline(__always) func sample(_ p: UnsafePointer<UInt8>, _ c: Int) -> UInt64 { UInt64(p[2 * c]) << 8 | UInt64(p[2 * c + 1]) }
        @inline(__always) func store(_ value: UInt64, _ p: UnsafeMutablePointer<UInt8>, _ c: Int) {
            p[2 * c] = UInt8(truncatingIfNeeded: value >> 8)
            p[2 * c + 1] = UInt8(truncatingIfNeeded: value)
        }
        for index in 0..<count {
            let s = source + 8 * index, d = canvas + 8 * index
            let sourceAlpha = sample(s, 3)
            if sourceAlpha == 0 { continue }
            let canvasAlpha = sample(UnsafePointer(d), 3)
            if sourceAlpha == 65535 || canvasAlpha == 0 {
                d.update(from: s, count: 8)
                continue
            }
            // Bounds: total ≤ 65535² < 2^32, each numerator ≤ 65535·total < 2^48: UInt64 holds 2·numerator + total.
            let canvasWeight = canvasAlpha * (65535 - sourceAlpha)
            let total = sourceAlpha * 65535 + canvasWeight
            for c in 0..<3 {
                let numerator = sample(s, c) * sourceAlpha * 65535 + sample(UnsafePointer(d), c) * canvasWeight
                store((2 * numerator + total) / (2 * total), d, c)
            }
            store((total + 32767) / 65535, d, 3)
        }
    }
}
