/// A LUT-based conversion precomputed on a grid: encoded sRGB (16-bit) at every grid point of
/// the input space, interpolated as LittleCMS interpolates its own optimised grids
/// (tetrahedral in 3D; 4D linearly along the first input between two tetrahedral lookups).
///
/// 33 points per input for RGB, 17 for CMYK (LittleCMS's defaults for 16-bit transforms).
/// For 8-bit input each sample's grid offset and fraction come from a 256-entry table per input.
struct GridKernel: Sendable {
    let inputs: Int
    let points: Int
    /// `points^inputs` × 3 values, first input varying slowest.
    let grid: [UInt16]
    /// Values between grid neighbours along each input.
    let strides: [Int]
    /// Whether CMYK samples are stored inverted (Adobe JPEG): 255 is no ink.
    let invertedInput: Bool
    /// For 8-bit samples, per input: the offset of the sample's cell along that input
    /// (`cell × stride`) at `256·input + sample`.
    let offsets8: [Int]
    /// For 8-bit samples, per input: the position inside the cell, Q16 (0 ... 65536).
    let fractions8: [Int]

    static func gridPoints(inputs: Int) -> Int { inputs >= 4 ? 17 : 33 }

    init(model: ConversionModel, invertedInput: Bool) {
        inputs = model.inputChannels
        let points = Self.gridPoints(inputs: inputs)
        self.points = points
        self.invertedInput = invertedInput
        var strides = [Int](repeating: 3, count: inputs)
        var stride = 3
        for index in (0..<inputs).reversed() {
            strides[index] = stride
            stride *= points
        }
        self.strides = strides
        grid = model.sampled(points: points).values.map { UInt16(($0 * 65535).rounded()) }
        var offsets = [Int](repeating: 0, count: 256 * inputs), fractions = offsets
        for axis in 0..<inputs {
            for sample in 0...255 {
                let (index, fraction) = Self.locate(invertedInput ? 255 - sample : sample, maximum: 255, points: points)
                offsets[256 * axis + sample] = index * strides[axis]
                fractions[256 * axis + sample] = fraction
            }
        }
        offsets8 = offsets
        fractions8 = fractions
    }

    /// Cell index and Q16 fraction of a sample of `maximum` (255 or 65535) on `points` grid points.
    @inline(__always)
    static func locate(_ sample: Int, maximum: Int, points: Int) -> (index: Int, fraction: Int) {
        let position = sample &* (points &- 1)
        let index = min(position / maximum, points &- 2)
        return (index, ((position &- index &* maximum) &<< 16) / maximum)
    }

    /// Tetrahedral interpolation at `base` along three (fraction, stride) axes: from the low
    /// corner, step along the axes by decreasing fraction. Grid values ≤ 65535 and fractions
    /// ≤ 65536, so every product fits easily.
    @inline(__always)
    static func tetrahedral(_ grid: UnsafePointer<UInt16>, _ base: Int,
                            _ a: (Int, Int), _ b: (Int, Int), _ c: (Int, Int)) -> (Int, Int, Int) {
        var (x, y, z) = (a, b, c)
        if x.0 < y.0 { swap(&x, &y) }
        if y.0 < z.0 { swap(&y, &z) }
        if x.0 < y.0 { swap(&x, &y) }
        let o1 = base &+ x.1, o2 = o1 &+ y.1, o3 = o2 &+ z.1
        func channel(_ k: Int) -> Int {
            let p0 = Int(grid[base &+ k]), p1 = Int(grid[o1 &+ k]), p2 = Int(grid[o2 &+ k]), p3 = Int(grid[o3 &+ k])
            return p0 &+ (((p1 &- p0) &* x.0 &+ (p2 &- p1) &* y.0 &+ (p3 &- p2) &* z.0 &+ 32768) &>> 16)
        }
        return (channel(0), channel(1), channel(2))
    }

    /// 16-bit → 8-bit, `v·255/65535` rounded without a division. No clamping: every value the
    /// kernels make is a convex combination of grid values (tetrahedral weights and lerps are
    /// ≥ 0 and sum to 1, rounded to nearest), so it is inside 0 ... 65535 like them.
    @inline(__always)
    static func to8(_ value: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: (value &* 255 &+ 32895) &>> 16)
    }

    /// Converts `count` pixels: 8-bit input of `inputStride` samples (3, 4 with alpha, 4 CMYK),
    /// 8-bit RGB output of `outputStride` samples (in place is fine for 3 inputs); alpha is left
    /// alone. CMYK goes through ``runCMYK8(_:_:outputStride:count:)``.
    func run8(_ source: UnsafePointer<UInt8>, inputStride: Int, _ destination: UnsafeMutablePointer<UInt8>,
              outputStride: Int, count: Int) {
        guard inputs == 3 else {
            runCMYK8(source, destination, outputStride: outputStride, count: count)
            return
        }
        grid.withUnsafeBufferPointer { gridBuffer in
        offsets8.withUnsafeBufferPointer { offsetBuffer in
        fractions8.withUnsafeBufferPointer { fractionBuffer in
            guard let g = gridBuffer.baseAddress, let o = offsetBuffer.baseAddress, let f = fractionBuffer.baseAddress else { return }
            var s = source, d = destination
            let (s0, s1, s2) = (strides[0], strides[1], strides[2])
            for _ in 0..<count {
                let i0 = Int(s[0]), i1 = 256 &+ Int(s[1]), i2 = 512 &+ Int(s[2])
                let rgb = Self.tetrahedral(g, o[i0] &+ o[i1] &+ o[i2], (f[i0], s0), (f[i1], s1), (f[i2], s2))
                d[0] = Self.to8(rgb.0); d[1] = Self.to8(rgb.1); d[2] = Self.to8(rgb.2)
                s += inputStride
                d += outputStride
            }
        }}}
    }

    /// 16-bit big-endian RGB(A) in place (3-input grids only: CMYK is 8-bit).
    func run16(_ pixels: UnsafeMutablePointer<UInt8>, stride: Int, count: Int) {
        guard inputs == 3 else { return }
        grid.withUnsafeBufferPointer { gridBuffer in
            guard let g = gridBuffer.baseAddress else { return }
            let (s0, s1, s2) = (strides[0], strides[1], strides[2])
            var p = pixels
            for _ in 0..<count {
                let c0 = Self.locate(Int(p[0]) &<< 8 | Int(p[1]), maximum: 65535, points: points)
                let c1 = Self.locate(Int(p[2]) &<< 8 | Int(p[3]), maximum: 65535, points: points)
                let c2 = Self.locate(Int(p[4]) &<< 8 | Int(p[5]), maximum: 65535, points: points)
                let base = c0.index &* s0 &+ c1.index &* s1 &+ c2.index &* s2
                let rgb = Self.tetrahedral(g, base, (c0.fraction, s0), (c1.fraction, s1), (c2.fraction, s2))
                let red = min(max(rgb.0, 0), 65535), green = min(max(rgb.1, 0), 65535), blue = min(max(rgb.2, 0), 65535)
                p[0] = UInt8(truncatingIfNeeded: red &>> 8); p[1] = UInt8(truncatingIfNeeded: red)
                p[2] = UInt8(truncatingIfNeeded: green &>> 8); p[3] = UInt8(truncatingIfNeeded: green)
                p[4] = UInt8(truncatingIfNeeded: blue &>> 8); p[5] = UInt8(truncatingIfNeeded: blue)
                p += 2 &* stride
            }
        }
    }
}
