/// A LUT-based conversion precomputed on a grid: encoded sRGB (16-bit) at every grid point of
/// the input space, interpolated as LittleCMS interpolates its own optimised grids
/// (tetrahedral in 3D; 4D linearly along the first input between two tetrahedral lookups).
///
/// 33 points per input for RGB, 17 for CMYK (LittleCMS's defaults for 16-bit transforms).
struct GridKernel: Sendable {
    let inputs: Int
    let points: Int
    /// `points^inputs` × 3 values, first input varying slowest.
    let grid: [UInt16]
    /// Values between grid neighbours along each input.
    let strides: [Int]
    /// Whether CMYK samples are stored inverted (Adobe JPEG): 255 is no ink.
    let invertedInput: Bool

    static func gridPoints(inputs: Int) -> Int { inputs >= 4 ? 17 : 33 }

    init(model: ConversionModel, invertedInput: Bool) {
        inputs = model.inputChannels
        points = Self.gridPoints(inputs: inputs)
        self.invertedInput = invertedInput
        var strides = [Int](repeating: 3, count: inputs)
        var stride = 3
        for index in (0..<inputs).reversed() {
            strides[index] = stride
            stride *= points
        }
        self.strides = strides
        grid = model.sampled(points: points).values.map { UInt16(($0 * 65535).rounded()) }
    }

    /// Cell index and Q16 fraction of a sample of `maximum` (255 or 65535) on the grid.
    @inline(__always)
    func locate(_ sample: Int, maximum: Int) -> (index: Int, fraction: Int) {
        let position = (invertedInput ? maximum - sample : sample) * (points - 1)
        let index = min(position / maximum, points - 2)
        return (index, ((position - index * maximum) << 16) / maximum)
    }

    /// Interpolates at the located inputs into three Q0 16-bit values.
    @inline(__always)
    func lookup(_ grid: UnsafeBufferPointer<UInt16>, _ cells: (Int, Int, Int, Int), _ fractions: (Int, Int, Int, Int)) -> SIMD3<Int> {
        if inputs == 3 {
            let base = cells.0 * strides[0] + cells.1 * strides[1] + cells.2 * strides[2]
            return tetrahedral(grid, base: base, (fractions.0, strides[0]), (fractions.1, strides[1]), (fractions.2, strides[2]))
        }
        let base = cells.0 * strides[0] + cells.1 * strides[1] + cells.2 * strides[2] + cells.3 * strides[3]
        let low = tetrahedral(grid, base: base, (fractions.1, strides[1]), (fractions.2, strides[2]), (fractions.3, strides[3]))
        let high = tetrahedral(grid, base: base + strides[0], (fractions.1, strides[1]), (fractions.2, strides[2]), (fractions.3, strides[3]))
        return low &+ (((high &- low) &* fractions.0 &+ 32768) &>> 16)
    }

    /// Tetrahedral interpolation: from the low corner, step along the axes by decreasing fraction.
    @inline(__always)
    private func tetrahedral(_ grid: UnsafeBufferPointer<UInt16>, base: Int,
                             _ a: (Int, Int), _ b: (Int, Int), _ c: (Int, Int)) -> SIMD3<Int> {
        var (x, y, z) = (a, b, c)
        if x.0 < y.0 { swap(&x, &y) }
        if y.0 < z.0 { swap(&y, &z) }
        if x.0 < y.0 { swap(&x, &y) }
        func value(_ offset: Int) -> SIMD3<Int> {
            SIMD3(Int(grid[offset]), Int(grid[offset + 1]), Int(grid[offset + 2]))
        }
        let p0 = value(base), p1 = value(base + x.1), p2 = value(base + x.1 + y.1), p3 = value(base + x.1 + y.1 + z.1)
        let sum = (p1 &- p0) &* x.0 &+ (p2 &- p1) &* y.0 &+ (p3 &- p2) &* z.0
        return p0 &+ ((sum &+ 32768) &>> 16)
    }

    /// Converts `count` pixels: 8-bit input of `inputStride` samples (3, 4 with alpha, 4 CMYK),
    /// 8-bit RGB output of `outputStride` samples; alpha (RGBA input) is copied by the caller.
    func run8(_ source: UnsafePointer<UInt8>, inputStride: Int, _ destination: UnsafeMutablePointer<UInt8>,
              outputStride: Int, count: Int) {
        grid.withUnsafeBufferPointer { grid in
            var s = source, d = destination
            for _ in 0..<count {
                let c0 = locate(Int(s[0]), maximum: 255), c1 = locate(Int(s[1]), maximum: 255)
                let c2 = locate(Int(s[2]), maximum: 255)
                let c3 = inputs == 4 ? locate(Int(s[3]), maximum: 255) : (index: 0, fraction: 0)
                let rgb = lookup(grid, (c0.index, c1.index, c2.index, c3.index), (c0.fraction, c1.fraction, c2.fraction, c3.fraction))
                // v·255/65535 rounded, without a division.
                d[0] = UInt8(truncatingIfNeeded: (min(max(rgb.x, 0), 65535) &* 255 &+ 32895) &>> 16)
                d[1] = UInt8(truncatingIfNeeded: (min(max(rgb.y, 0), 65535) &* 255 &+ 32895) &>> 16)
                d[2] = UInt8(truncatingIfNeeded: (min(max(rgb.z, 0), 65535) &* 255 &+ 32895) &>> 16)
                s += inputStride
                d += outputStride
            }
        }
    }

    /// As ``run8(_:inputStride:_:outputStride:count:)`` for 16-bit big-endian RGB(A) in place.
    func run16(_ pixels: UnsafeMutablePointer<UInt8>, stride: Int, count: Int) {
        grid.withUnsafeBufferPointer { grid in
            var p = pixels
            for _ in 0..<count {
                let c0 = locate(Int(p[0]) << 8 | Int(p[1]), maximum: 65535)
                let c1 = locate(Int(p[2]) << 8 | Int(p[3]), maximum: 65535)
                let c2 = locate(Int(p[4]) << 8 | Int(p[5]), maximum: 65535)
                let rgb = lookup(grid, (c0.index, c1.index, c2.index, 0), (c0.fraction, c1.fraction, c2.fraction, 0))
                for channel in 0..<3 {
                    let value = min(max(rgb[channel], 0), 65535)
                    p[2 * channel] = UInt8(truncatingIfNeeded: value >> 8)
                    p[2 * channel + 1] = UInt8(truncatingIfNeeded: value)
                }
                p += 2 * stride
            }
        }
    }
}
