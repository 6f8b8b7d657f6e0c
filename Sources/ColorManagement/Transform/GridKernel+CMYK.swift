/// CMYK (4-input) grids, 8-bit samples to 8-bit RGB.
///
/// LittleCMS interpolates a 4D grid linearly along the first input (cyan) between two
/// tetrahedral lookups in the magenta-yellow-black cube on either side. Both steps are linear in
/// the grid values, so lerping the two cyan slices of the grid first and then looking up one
/// tetrahedron in that "cyan plane" gives the same value (up to the rounding of the plane's
/// 16-bit values). A photo has at most 256 cyan samples and thousands of pixels per sample, so
/// building the plane once per cyan sample halves the work per pixel: one tetrahedron instead of
/// two, no lerp. Cyan samples on a grid node (0 and 255 with 17 points) use the grid's own slice.
extension GridKernel {
    /// Pixels sharing a cyan sample from which building its plane pays: a plane is 3·17³ =
    /// 14 739 lerps (about 5 instructions each, ≈ 74 000), and it saves one tetrahedron and a
    /// lerp (≈ 70 instructions) per pixel, so about 1 000 pixels break even.
    static let minimumPixelsPerCyanPlane = 1024

    /// CMYK → RGB, through cyan planes for the cyan samples common enough to pay for theirs and
    /// per pixel (``runCMYK8PerPixel(_:_:outputStride:count:)``) for the others. Returns the
    /// number of planes built.
    @discardableResult
    func runCMYK8(_ source: UnsafePointer<UInt8>, _ destination: UnsafeMutablePointer<UInt8>,
                  outputStride: Int, count: Int) -> Int {
        guard inputs == 4, count >= Self.minimumPixelsPerCyanPlane else {
            runCMYK8PerPixel(source, destination, outputStride: outputStride, count: count)
            return 0
        }
        var pixelsPerCyan = [Int](repeating: 0, count: 256)
        pixelsPerCyan.withUnsafeMutableBufferPointer { histogram in
            var s = source
            for _ in 0..<count {
                histogram[Int(s[0])] &+= 1
                s += 4
            }
        }
        let planeValues = strides[0]
        let built = (0..<256).filter { pixelsPerCyan[$0] >= Self.minimumPixelsPerCyanPlane && !isOnGridNode(cyan: $0) }
        let planes = UnsafeMutablePointer<UInt16>.allocate(capacity: max(1, built.count * planeValues))
        defer { planes.deallocate() }
        // Per cyan sample: its plane, or nil for the per-pixel 4D path.
        let planeForCyan = UnsafeMutablePointer<UnsafePointer<UInt16>?>.allocate(capacity: 256)
        defer { planeForCyan.deallocate() }
        planeForCyan.initialize(repeating: nil, count: 256)
        grid.withUnsafeBufferPointer { gridBuffer in
        offsets8.withUnsafeBufferPointer { offsetBuffer in
        fractions8.withUnsafeBufferPointer { fractionBuffer in
            guard let g = gridBuffer.baseAddress, let o = offsetBuffer.baseAddress, let f = fractionBuffer.baseAddress else { return }
            for cyan in 0..<256 where isOnGridNode(cyan: cyan) {
                // On a node the plane is the grid's slice (fraction 0, or 65536 at the last cell's end).
                planeForCyan[cyan] = g + o[cyan] + (f[cyan] == 0 ? 0 : strides[0])
            }
            for (slot, cyan) in built.enumerated() {
                let plane = planes + slot * planeValues
                Self.lerpSlices(g + o[cyan], g + o[cyan] + strides[0], fraction: f[cyan], into: plane, count: planeValues)
                planeForCyan[cyan] = UnsafePointer(plane)
            }
            let (s0, s1, s2, s3) = (strides[0], strides[1], strides[2], strides[3])
            var s = source, d = destination
            for _ in 0..<count {
                let i1 = 256 &+ Int(s[1]), i2 = 512 &+ Int(s[2]), i3 = 768 &+ Int(s[3])
                let rgb: (Int, Int, Int)
                if let plane = planeForCyan[Int(s[0])] {
                    rgb = Self.tetrahedral(plane, o[i1] &+ o[i2] &+ o[i3], (f[i1], s1), (f[i2], s2), (f[i3], s3))
                } else {
                    let i0 = Int(s[0])
                    rgb = Self.interpolate4(g, o[i0] &+ o[i1] &+ o[i2] &+ o[i3], (f[i0], s0), (f[i1], s1), (f[i2], s2), (f[i3], s3))
                }
                d[0] = Self.to8(rgb.0); d[1] = Self.to8(rgb.1); d[2] = Self.to8(rgb.2)
                s += 4
                d += outputStride
            }
        }}}
        return built.count
    }

    /// The same conversion with two tetrahedra and a lerp for every pixel: what small images
    /// use, and the twin the cyan planes are tested against.
    func runCMYK8PerPixel(_ source: UnsafePointer<UInt8>, _ destination: UnsafeMutablePointer<UInt8>,
                          outputStride: Int, count: Int) {
        guard inputs == 4 else { return }
        grid.withUnsafeBufferPointer { gridBuffer in
        offsets8.withUnsafeBufferPointer { offsetBuffer in
        fractions8.withUnsafeBufferPointer { fractionBuffer in
            guard let g = gridBuffer.baseAddress, let o = offsetBuffer.baseAddress, let f = fractionBuffer.baseAddress else { return }
            let (s0, s1, s2, s3) = (strides[0], strides[1], strides[2], strides[3])
            var s = source, d = destination
            for _ in 0..<count {
                let i0 = Int(s[0]), i1 = 256 &+ Int(s[1]), i2 = 512 &+ Int(s[2]), i3 = 768 &+ Int(s[3])
                let rgb = Self.interpolate4(g, o[i0] &+ o[i1] &+ o[i2] &+ o[i3], (f[i0], s0), (f[i1], s1), (f[i2], s2), (f[i3], s3))
                d[0] = Self.to8(rgb.0); d[1] = Self.to8(rgb.1); d[2] = Self.to8(rgb.2)
                s += 4
                d += outputStride
            }
        }}}
    }

    /// Whether a cyan sample falls on a grid node (its fraction is 0 or a whole cell), so the
    /// grid's slice is its plane as it is.
    func isOnGridNode(cyan: Int) -> Bool {
        let fraction = fractions8[cyan]
        return fraction == 0 || fraction == 65536
    }

    /// LittleCMS's 4D scheme: tetrahedra in the last three inputs at both ends of the first
    /// input's cell, then linear along the first. Results stay in 0 ... 65535 (every step is a
    /// convex combination of grid values, rounded to nearest).
    @inline(__always)
    static func interpolate4(_ grid: UnsafePointer<UInt16>, _ base: Int, _ first: (Int, Int),
                             _ a: (Int, Int), _ b: (Int, Int), _ c: (Int, Int)) -> (Int, Int, Int) {
        let low = tetrahedral(grid, base, a, b, c)
        let high = tetrahedral(grid, base &+ first.1, a, b, c)
        let t = first.0
        return (low.0 &+ (((high.0 &- low.0) &* t &+ 32768) &>> 16),
                low.1 &+ (((high.1 &- low.1) &* t &+ 32768) &>> 16),
                low.2 &+ (((high.2 &- low.2) &* t &+ 32768) &>> 16))
    }

    /// `plane[i] = low[i] + (high[i] − low[i])·fraction` rounded, fraction Q16 (0 ... 65536):
    /// the grid lerped along the first input, as ``interpolate4(_:_:_:_:_:_:)`` lerps its two
    /// tetrahedra. Values stay in 0 ... 65535.
    static func lerpSlices(_ low: UnsafePointer<UInt16>, _ high: UnsafePointer<UInt16>, fraction: Int,
                           into plane: UnsafeMutablePointer<UInt16>, count: Int) {
        for index in 0..<count {
            let a = Int(low[index]), b = Int(high[index])
            plane[index] = UInt16(truncatingIfNeeded: a &+ (((b &- a) &* fraction &+ 32768) &>> 16))
        }
    }
}
