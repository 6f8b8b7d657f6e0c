/// Per-row upsampling kernels with libjpeg-turbo's exact arithmetic and edge rules (jdsample.c).
///
/// The triangle ("fancy") filters place output samples 1/4 and 3/4 of the way between input
/// centres; the `+1`/`+2` (and `+7`/`+8`) biases alternate so halves round up and down in turn.
/// At the left and right ends the missing neighbour is the edge sample itself.
enum RowUpsampler {
    /// 2:1 horizontal triangle filter: `width` (> 2) inputs → 2·`width` outputs.
    static func h2v1Fancy(_ input: UnsafePointer<UInt8>, width: Int, into output: UnsafeMutablePointer<UInt8>) {
        let first = Int32(input[0])
        output[0] = UInt8(truncatingIfNeeded: first)
        output[1] = UInt8(truncatingIfNeeded: (first * 3 + Int32(input[1]) + 2) >> 2)
        // No value carried between iterations and 16-bit sums (at most 1022), so the compiler can vectorise.
        for x in 1..<(width - 1) {
            let centre = UInt16(input[x]) &* 3
            output[2 * x] = UInt8(truncatingIfNeeded: (centre &+ UInt16(input[x - 1]) &+ 1) &>> 2)
            output[2 * x + 1] = UInt8(truncatingIfNeeded: (centre &+ UInt16(input[x + 1]) &+ 2) &>> 2)
        }
        let last = Int32(input[width - 1])
        output[2 * width - 2] = UInt8(truncatingIfNeeded: (last * 3 + Int32(input[width - 2]) + 1) >> 2)
        output[2 * width - 1] = UInt8(truncatingIfNeeded: last)
    }

    /// 1:2 vertical triangle filter: 3/4 of the nearer row + 1/4 of the farther one.
    /// `upper` is true for the top output row of a pair (farther row above, bias 1), false below (bias 2).
    static func h1v2Fancy(near: UnsafePointer<UInt8>, far: UnsafePointer<UInt8>, width: Int, upper: Bool,
                          into output: UnsafeMutablePointer<UInt8>) {
        let bias: Int32 = upper ? 1 : 2
        for x in 0..<width {
            output[x] = UInt8(truncatingIfNeeded: (Int32(near[x]) * 3 + Int32(far[x]) + bias) >> 2)
        }
    }

    /// 2:2 triangle filter: vertical sums 3·near + far, then the horizontal filter on those sums
    /// with one rounding at the end (÷16). `width` (> 2) inputs → 2·`width` outputs. The column
    /// sums go to `sums` (`width` values) first: each is then computed once rather than three
    /// times, and both loops vectorise (about a quarter faster than recomputing them).
    static func h2v2Fancy(near: UnsafePointer<UInt8>, far: UnsafePointer<UInt8>, width: Int,
                          sums: UnsafeMutablePointer<UInt16>, into output: UnsafeMutablePointer<UInt8>) {
        // 16-bit arithmetic is exact here (at most 4 · 1020 + 8) and gives the vectoriser more lanes.
        for x in 0..<width { sums[x] = UInt16(near[x]) &* 3 &+ UInt16(far[x]) }
        let first = sums[0]
        output[0] = UInt8(truncatingIfNeeded: (first &* 4 &+ 8) &>> 4)
        output[1] = UInt8(truncatingIfNeeded: (first &* 3 &+ sums[1] &+ 7) &>> 4)
        for x in 1..<(width - 1) {
            let this = sums[x] &* 3
            output[2 * x] = UInt8(truncatingIfNeeded: (this &+ sums[x - 1] &+ 8) &>> 4)
            output[2 * x + 1] = UInt8(truncatingIfNeeded: (this &+ sums[x + 1] &+ 7) &>> 4)
        }
        let last = sums[width - 1]
        output[2 * width - 2] = UInt8(truncatingIfNeeded: (last &* 3 &+ sums[width - 2] &+ 8) &>> 4)
        output[2 * width - 1] = UInt8(truncatingIfNeeded: (last &* 4 &+ 7) &>> 4)
    }

    /// Box filter across: each input sample repeated `factor` times, `outputWidth` samples written.
    static func replicate(_ input: UnsafePointer<UInt8>, factor: Int, outputWidth: Int, into output: UnsafeMutablePointer<UInt8>) {
        if factor == 2 {
            for x in 0..<outputWidth { output[x] = input[x >> 1] }
            return
        }
        for x in 0..<outputWidth { output[x] = input[x / factor] }
    }
}
