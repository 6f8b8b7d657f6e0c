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
        var x = 1
        while x < width - 1 {
            let centre = Int32(input[x]) * 3
            output[2 * x] = UInt8(truncatingIfNeeded: (centre + Int32(input[x - 1]) + 1) >> 2)
            output[2 * x + 1] = UInt8(truncatingIfNeeded: (centre + Int32(input[x + 1]) + 2) >> 2)
            x += 1
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
    /// with one rounding at the end (÷16). `width` (> 2) inputs → 2·`width` outputs.
    static func h2v2Fancy(near: UnsafePointer<UInt8>, far: UnsafePointer<UInt8>, width: Int,
                          into output: UnsafeMutablePointer<UInt8>) {
        @inline(__always) func columnSum(_ x: Int) -> Int32 { Int32(near[x]) * 3 + Int32(far[x]) }
        var this = columnSum(0)
        var next = columnSum(1)
        output[0] = UInt8(truncatingIfNeeded: (this * 4 + 8) >> 4)
        output[1] = UInt8(truncatingIfNeeded: (this * 3 + next + 7) >> 4)
        var last = this
        this = next
        var x = 1
        while x < width - 1 {
            next = columnSum(x + 1)
            output[2 * x] = UInt8(truncatingIfNeeded: (this * 3 + last + 8) >> 4)
            output[2 * x + 1] = UInt8(truncatingIfNeeded: (this * 3 + next + 7) >> 4)
            last = this
            this = next
            x += 1
        }
        output[2 * width - 2] = UInt8(truncatingIfNeeded: (this * 3 + last + 8) >> 4)
        output[2 * width - 1] = UInt8(truncatingIfNeeded: (this * 4 + 7) >> 4)
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
