/// CMYK (4-input) grids, 8-bit samples to 8-bit RGB.
///
/// LittleCMS interpolates a 4D grid linearly along the first input (cyan) between two
/// tetrahedral lookups in the magenta-yellow-black cube on either side. Both steps are linear in
/// the grid values, so lerping the two cyan slices of the grid first and then looking up one
/// tetrahedron in that "cyan plane" gives the same value. A photo has at most 256 cyan samples
/// and thousands of pixels per sample, so building the plane once per cyan sample halves the
/// work per pixel: one tetrahedron instead of two, no lerp.
///
/// A plane holds each node as `SIMD4<Float>` (red, green, blue in 8-bit units, one lane
/// unused: 17³ × 16 bytes = 79 KB), so a corner is one load and the interpolation is three
/// vector multiply-adds on any SIMD unit (SSE2 has no 32-bit integer vector multiply). Values
/// stay within 0 ... 255 (a convex combination of node values), so rounding needs no clamp.
extension GridKernel {
    /// Pixels sharing a cyan sample from which building its plane pays: a plane is 17³ = 4 913
    /// node lerps (about 8 instructions each, ≈ 40 000), and it saves one tetrahedron and a lerp
    /// (≈ 70 instructions) per pixel, so about 600 pixels break even; 1 024 keeps small images
    /// and rare samples on the per-pixel path.
    static let minimumPixelsPerCyanPlane = 1024

    /// `1.5 · 2²³`: adding it to a float in −0.5 ... 255.5 leaves the float rounded to the nearest
    /// integer (ties to even) in the low byte of its bits.
    private static let roundingBias: Float = 12_582_912

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
        let built = (0..<256).filter { pixelsPerCyan[$0] >= Self.minimumPixelsPerCyanPlane }
        let nodesPerPlane = points * points * points
        let planes = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: max(1, built.count * nodesPerPlane))
        defer { planes.deallocate() }
        // Per cyan sample: its plane, or nil for the per-pixel 4D path.
        let planeForCyan = UnsafeMutablePointer<UnsafePointer<SIMD4<Float>>?>.allocate(capacity: 256)
        defer { planeForCyan.deallocate() }
        planeForCyan.initialize(repeating: nil, count: 256)
        // Per magenta, yellow and black sample (at 256·axis + sample, axis 1 ... 3): the cell's
        // node offset in a plane, and its sort key (see ``tetrahedral(_:_:_:_:_:)``).
        let nodeOffsets = UnsafeMutablePointer<Int>.allocate(capacity: 1024)
        defer { nodeOffsets.deallocate() }
        let sortKeys = UnsafeMutablePointer<UInt64>.allocate(capacity: 1024)
        defer { sortKeys.deallocate() }
        for index in 0..<1024 {
            // Grid offsets are 3 values per node; plane offsets count nodes.
            nodeOffsets[index] = offsets8[index] / 3
            let fraction = Float(fractions8[index]) / 65536
            sortKeys[index] = UInt64(fraction.bitPattern) << 32 | UInt64(strides[index / 256] / 3)
        }
        grid.withUnsafeBufferPointer { gridBuffer in
        offsets8.withUnsafeBufferPointer { offsetBuffer in
        fractions8.withUnsafeBufferPointer { fractionBuffer in
            guard let g = gridBuffer.baseAddress, let o = offsetBuffer.baseAddress, let f = fractionBuffer.baseAddress else { return }
            for (slot, cyan) in built.enumerated() {
                let plane = planes + slot * nodesPerPlane
                Self.buildPlane(low: g + o[cyan], high: g + o[cyan] + strides[0], fraction: f[cyan], into: plane, nodes: nodesPerPlane)
                planeForCyan[cyan] = UnsafePointer(plane)
            }
            let (s0, s1, s2, s3) = (strides[0], strides[1], strides[2], strides[3])
            // Lane multipliers that move each lane's byte to its place in a word (a local: a
            // static would be a lazy global, checked on every use).
            let bytePlaces = SIMD4<UInt32>(1, 1 << 8, 1 << 16, 1 << 24)
            var s = source, d = destination
            for _ in 0..<count {
                let i1 = 256 &+ Int(s[1]), i2 = 512 &+ Int(s[2]), i3 = 768 &+ Int(s[3])
                if let plane = planeForCyan[Int(s[0])] {
                    let rgb = Self.tetrahedral(plane, nodeOffsets[i1] &+ nodeOffsets[i2] &+ nodeOffsets[i3],
                                               sortKeys[i1], sortKeys[i2], sortKeys[i3])
                    // Rounded values in the low byte of each lane, moved to bytes 0, 1, 2 of one
                    // word with vector operations (all four lanes in use keeps the interpolation
                    // a vector computation too).
                    let bits = unsafeBitCast(rgb + Self.roundingBias, to: SIMD4<UInt32>.self)
                    let packed = ((bits & 0xFF) &* bytePlaces).wrappedSum()
                    d[0] = UInt8(truncatingIfNeeded: packed)
                    d[1] = UInt8(truncatingIfNeeded: packed &>> 8)
                    d[2] = UInt8(truncatingIfNeeded: packed &>> 16)
                } else {
                    let i0 = Int(s[0])
                    let rgb = Self.interpolate4(g, o[i0] &+ o[i1] &+ o[i2] &+ o[i3], (f[i0], s0), (f[i1], s1), (f[i2], s2), (f[i3], s3))
                    d[0] = Self.to8(rgb.0); d[1] = Self.to8(rgb.1); d[2] = Self.to8(rgb.2)
                }
                s += 4
                d += outputStride
            }
        }}}
        return built.count
    }

    /// Tetrahedral interpolation in a plane at node `base` along three axes, as
    /// ``tetrahedral(_:_:_:_:_:)`` does on the 16-bit grid. Each axis comes as a sort key: the
    /// fraction's float bits (0 ... 1: their order as integers is the floats' order) in the high
    /// 32 bits, the axis's node stride in the low ones, so six branch-free min/max sort them.
    @inline(__always)
    static func tetrahedral(_ plane: UnsafePointer<SIMD4<Float>>, _ base: Int,
                            _ a: UInt64, _ b: UInt64, _ c: UInt64) -> SIMD4<Float> {
        let low = min(a, b), high = max(a, b)
        let x = max(high, c), middle = min(high, c)
        let y = max(low, middle), z = min(low, middle)
        let o1 = base &+ Int(truncatingIfNeeded: x & 0xFFFF_FFFF)
        let o2 = o1 &+ Int(truncatingIfNeeded: y & 0xFFFF_FFFF)
        let o3 = o2 &+ Int(truncatingIfNeeded: z & 0xFFFF_FFFF)
        let fx = Float(bitPattern: UInt32(truncatingIfNeeded: x &>> 32))
        let fy = Float(bitPattern: UInt32(truncatingIfNeeded: y &>> 32))
        let fz = Float(bitPattern: UInt32(truncatingIfNeeded: z &>> 32))
        let p0 = plane[base], p1 = plane[o1], p2 = plane[o2], p3 = plane[o3]
        return p0 + (p1 - p0) * fx + (p2 - p1) * fy + (p3 - p2) * fz
    }

    /// The plane of a cyan sample: the grid's two cyan slices `low` and `high` (3 values per
    /// node) lerped by `fraction` (Q16, 0 ... 65536), in 8-bit units.
    static func buildPlane(low: UnsafePointer<UInt16>, high: UnsafePointer<UInt16>, fraction: Int,
                           into plane: UnsafeMutablePointer<SIMD4<Float>>, nodes: Int) {
        let t = Float(fraction) / 65536
        let scale: Float = 255.0 / 65535.0
        for node in 0..<nodes {
            let value = 3 &* node
            let a = SIMD4<Float>(Float(low[value]), Float(low[value &+ 1]), Float(low[value &+ 2]), 0)
            let b = SIMD4<Float>(Float(high[value]), Float(high[value &+ 1]), Float(high[value &+ 2]), 0)
            (plane + node).initialize(to: (a + (b - a) * t) * scale)
        }
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
}
