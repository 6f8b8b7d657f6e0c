/// libjpeg-turbo's upsampling kernels (jdsample.c) on 16-bit samples, for 12-bit images: the
/// same arithmetic and edge rules as ``RowUpsampler`` (kept apart so the 8-bit loops stay as they
/// are). 16-bit sums are exact for 12-bit samples: the 2:2 filter reaches 16 · 4095 + 8 < 2^16.
enum WideRowUpsampler {
    /// The samples of `component` for output row `y`, `outputWidth` wide: a sample row itself, or
    /// `scratch` filled by the kernel ``ComponentLayout/upsampling`` names; `sampleRow(s)` returns
    /// sample row s (clamped to the component by the caller's layout, as ``ComponentRowUpsampler``).
    static func row(_ component: ComponentLayout, outputRow y: Int, outputWidth: Int,
                    scratch: UnsafeMutablePointer<UInt16>, sums: UnsafeMutablePointer<UInt16>,
                    sampleRow: (Int) -> UnsafeMutablePointer<UInt16>) -> UnsafePointer<UInt16> {
        let lastRow = component.downsampledHeight - 1
        let width = component.downsampledWidth
        switch component.upsampling {
        case .fullSize:
            return UnsafePointer(sampleRow(min(y, lastRow)))
        case .h2v1Fancy:
            h2v1Fancy(sampleRow(min(y, lastRow)), width: width, into: scratch)
        case .h1v2Fancy, .h2v2Fancy:
            let nearRow = min(y / 2, lastRow)
            let upper = y & 1 == 0
            let farRow = upper ? max(nearRow - 1, 0) : min(nearRow + 1, lastRow)
            let near = sampleRow(nearRow), far = sampleRow(farRow)
            if component.upsampling == .h1v2Fancy {
                let bias: UInt16 = upper ? 1 : 2
                for x in 0..<width { scratch[x] = (near[x] &* 3 &+ far[x] &+ bias) &>> 2 }
            } else {
                for x in 0..<width { sums[x] = near[x] &* 3 &+ far[x] }
                h2v2Fancy(sums: sums, width: width, into: scratch)
            }
        case .box(let horizontal, let vertical):
            let source = sampleRow(min(y / vertical, lastRow))
            if horizontal == 1 { return UnsafePointer(source) }
            for x in 0..<outputWidth { scratch[x] = source[x / horizontal] }
        }
        return UnsafePointer(scratch)
    }

    /// 2:1 horizontal triangle filter, `width` (> 2) inputs → 2·`width` outputs.
    private static func h2v1Fancy(_ input: UnsafePointer<UInt16>, width: Int, into output: UnsafeMutablePointer<UInt16>) {
        output[0] = input[0]
        output[1] = (input[0] &* 3 &+ input[1] &+ 2) &>> 2
        for x in 1..<(width - 1) {
            let centre = input[x] &* 3
            output[2 * x] = (centre &+ input[x - 1] &+ 1) &>> 2
            output[2 * x + 1] = (centre &+ input[x + 1] &+ 2) &>> 2
        }
        output[2 * width - 2] = (input[width - 1] &* 3 &+ input[width - 2] &+ 1) &>> 2
        output[2 * width - 1] = input[width - 1]
    }

    /// The horizontal half of the 2:2 triangle filter on column sums (3·near + far), ÷16 at the end.
    private static func h2v2Fancy(sums: UnsafePointer<UInt16>, width: Int, into output: UnsafeMutablePointer<UInt16>) {
        output[0] = (sums[0] &* 4 &+ 8) &>> 4
        output[1] = (sums[0] &* 3 &+ sums[1] &+ 7) &>> 4
        for x in 1..<(width - 1) {
            let this = sums[x] &* 3
            output[2 * x] = (this &+ sums[x - 1] &+ 8) &>> 4
            output[2 * x + 1] = (this &+ sums[x + 1] &+ 7) &>> 4
        }
        output[2 * width - 2] = (sums[width - 1] &* 3 &+ sums[width - 2] &+ 8) &>> 4
        output[2 * width - 1] = (sums[width - 1] &* 4 &+ 7) &>> 4
    }
}
