/// The VP8 loop filter (RFC 6386 section 15) with libwebp's arithmetic (`DoFilter2/4/6`,
/// `NeedsFilter`, `Hev`), applied to a macroblock edge or inner edge in place.
///
/// `p` points at the first pixel after the edge (q0); `step` crosses the edge (1 for a vertical
/// edge, the stride for a horizontal one) and `along` moves along it.
enum VP8LoopFilter {
    /// Filter parameters of one macroblock (libwebp's `VP8FInfo`, from `PrecomputeFilterStrengths`).
    struct Strength: Equatable {
        /// Edge limit `2 * level + interior`; 0 means no filtering.
        var limit = 0
        var interiorLimit = 0
        var hevThreshold = 0
        /// Inner edges are filtered (4×4 prediction, or some non-zero coefficient).
        var filterInner = false
    }

    // Kernels: samples are bytes, every sum stays within ±1 100, so wrapping arithmetic is exact.
    /// |v| for the small differences of the kernels (no overflow check needed, unlike `abs`).
    @inline(__always) static func magnitude(_ v: Int) -> Int { v < 0 ? 0 &- v : v }
    @inline(__always) static func clampSigned128(_ v: Int) -> Int { min(max(v, -128), 127) }
    @inline(__always) static func clampSigned16(_ v: Int) -> Int { min(max(v, -16), 15) }
    @inline(__always) static func clamp255(_ v: Int) -> UInt8 { UInt8(clamping: v) }

    /// Simple filter and the normal filter's high-variance case: adjusts p0 and q0.
    @inline(__always)
    static func filter2(_ p: UnsafeMutablePointer<UInt8>, _ step: Int) {
        let p1 = Int(p[-2 &* step]), p0 = Int(p[-step]), q0 = Int(p[0]), q1 = Int(p[step])
        let a = 3 &* (q0 &- p0) &+ clampSigned128(p1 &- q1)
        let a1 = clampSigned16((a &+ 4) >> 3)
        let a2 = clampSigned16((a &+ 3) >> 3)
        p[-step] = clamp255(p0 &+ a2)
        p[0] = clamp255(q0 &- a1)
    }

    /// Inner-edge filter: adjusts p1, p0, q0, q1.
    @inline(__always)
    static func filter4(_ p: UnsafeMutablePointer<UInt8>, _ step: Int) {
        let p1 = Int(p[-2 &* step]), p0 = Int(p[-step]), q0 = Int(p[0]), q1 = Int(p[step])
        let a = 3 &* (q0 &- p0)
        let a1 = clampSigned16((a &+ 4) >> 3)
        let a2 = clampSigned16((a &+ 3) >> 3)
        let a3 = (a1 &+ 1) >> 1
        p[-2 &* step] = clamp255(p1 &+ a3)
        p[-step] = clamp255(p0 &+ a2)
        p[0] = clamp255(q0 &- a1)
        p[step] = clamp255(q1 &- a3)
    }

    /// Macroblock-edge filter: adjusts p2…q2.
    @inline(__always)
    static func filter6(_ p: UnsafeMutablePointer<UInt8>, _ step: Int) {
        let p2 = Int(p[-3 &* step]), p1 = Int(p[-2 &* step]), p0 = Int(p[-step])
        let q0 = Int(p[0]), q1 = Int(p[step]), q2 = Int(p[2 &* step])
        let a = clampSigned128(3 &* (q0 &- p0) &+ clampSigned128(p1 &- q1))
        let a1 = (27 &* a &+ 63) >> 7
        let a2 = (18 &* a &+ 63) >> 7
        let a3 = (9 &* a &+ 63) >> 7
        p[-3 &* step] = clamp255(p2 &+ a3)
        p[-2 &* step] = clamp255(p1 &+ a2)
        p[-step] = clamp255(p0 &+ a1)
        p[0] = clamp255(q0 &- a1)
        p[step] = clamp255(q1 &- a2)
        p[2 &* step] = clamp255(q2 &- a3)
    }

    @inline(__always)
    static func highEdgeVariance(_ p: UnsafeMutablePointer<UInt8>, _ step: Int, _ threshold: Int) -> Bool {
        let p1 = Int(p[-2 &* step]), p0 = Int(p[-step]), q0 = Int(p[0]), q1 = Int(p[step])
        return magnitude(p1 &- p0) > threshold || magnitude(q1 &- q0) > threshold
    }

    @inline(__always)
    static func needsFilter(_ p: UnsafeMutablePointer<UInt8>, _ step: Int, _ t: Int) -> Bool {
        let p1 = Int(p[-2 &* step]), p0 = Int(p[-step]), q0 = Int(p[0]), q1 = Int(p[step])
        return 4 &* magnitude(p0 &- q0) &+ magnitude(p1 &- q1) <= t
    }

    @inline(__always)
    static func needsFilter2(_ p: UnsafeMutablePointer<UInt8>, _ step: Int, _ t: Int, _ interior: Int) -> Bool {
        let p3 = Int(p[-4 &* step]), p2 = Int(p[-3 &* step]), p1 = Int(p[-2 &* step]), p0 = Int(p[-step])
        let q0 = Int(p[0]), q1 = Int(p[step]), q2 = Int(p[2 &* step]), q3 = Int(p[3 &* step])
        if 4 &* magnitude(p0 &- q0) &+ magnitude(p1 &- q1) > t { return false }
        return magnitude(p3 &- p2) <= interior && magnitude(p2 &- p1) <= interior && magnitude(p1 &- p0) <= interior
            && magnitude(q3 &- q2) <= interior && magnitude(q2 &- q1) <= interior && magnitude(q1 &- q0) <= interior
    }

    /// Simple filter across one edge of `count` pixels (section 15.2).
    static func simpleEdge(_ p: UnsafeMutablePointer<UInt8>, step: Int, along: Int, count: Int, limit: Int) {
        let threshold = 2 * limit + 1
        for n in 0..<count {
            let at = p + n * along
            if needsFilter(at, step, threshold) { filter2(at, step) }
        }
    }

    /// Normal filter across one edge (section 15.3): macroblock edges use the 6-tap
    /// adjustment, inner edges the 4-tap one.
    static func normalEdge(_ p: UnsafeMutablePointer<UInt8>, step: Int, along: Int, count: Int, limit: Int,
                           interior: Int, hevThreshold: Int, macroblockEdge: Bool) {
        let threshold = 2 * limit + 1
        for n in 0..<count {
            let at = p + n * along
            guard needsFilter2(at, step, threshold, interior) else { continue }
            if highEdgeVariance(at, step, hevThreshold) {
                filter2(at, step)
            } else if macroblockEdge {
                filter6(at, step)
            } else {
                filter4(at, step)
            }
        }
    }

    /// Filters one macroblock at `y` (luma) and `u`, `v` (chroma) in libwebp's order: left
    /// edge, inner vertical edges, top edge, inner horizontal edges.
    static func filterMacroblock(y: UnsafeMutablePointer<UInt8>, yStride: Int, u: UnsafeMutablePointer<UInt8>,
                                 v: UnsafeMutablePointer<UInt8>, uvStride: Int, strength: Strength,
                                 simple: Bool, hasLeft: Bool, hasTop: Bool) {
        let limit = strength.limit
        guard limit > 0 else { return }
        if simple {
            if hasLeft { simpleEdge(y, step: 1, along: yStride, count: 16, limit: limit + 4) }
            if strength.filterInner {
                for k in 1...3 { simpleEdge(y + 4 * k, step: 1, along: yStride, count: 16, limit: limit) }
            }
            if hasTop { simpleEdge(y, step: yStride, along: 1, count: 16, limit: limit + 4) }
            if strength.filterInner {
                for k in 1...3 { simpleEdge(y + 4 * k * yStride, step: yStride, along: 1, count: 16, limit: limit) }
            }
            return
        }
        let interior = strength.interiorLimit, hev = strength.hevThreshold
        if hasLeft {
            normalEdge(y, step: 1, along: yStride, count: 16, limit: limit + 4, interior: interior, hevThreshold: hev, macroblockEdge: true)
            normalEdge(u, step: 1, along: uvStride, count: 8, limit: limit + 4, interior: interior, hevThreshold: hev, macroblockEdge: true)
            normalEdge(v, step: 1, along: uvStride, count: 8, limit: limit + 4, interior: interior, hevThreshold: hev, macroblockEdge: true)
        }
        if strength.filterInner {
            for k in 1...3 {
                normalEdge(y + 4 * k, step: 1, along: yStride, count: 16, limit: limit, interior: interior, hevThreshold: hev, macroblockEdge: false)
            }
            normalEdge(u + 4, step: 1, along: uvStride, count: 8, limit: limit, interior: interior, hevThreshold: hev, macroblockEdge: false)
            normalEdge(v + 4, step: 1, along: uvStride, count: 8, limit: limit, interior: interior, hevThreshold: hev, macroblockEdge: false)
        }
        if hasTop {
            normalEdge(y, step: yStride, along: 1, count: 16, limit: limit + 4, interior: interior, hevThreshold: hev, macroblockEdge: true)
            normalEdge(u, step: uvStride, along: 1, count: 8, limit: limit + 4, interior: interior, hevThreshold: hev, macroblockEdge: true)
            normalEdge(v, step: uvStride, along: 1, count: 8, limit: limit + 4, interior: interior, hevThreshold: hev, macroblockEdge: true)
        }
        if strength.filterInner {
            for k in 1...3 {
                normalEdge(y + 4 * k * yStride, step: yStride, along: 1, count: 16, limit: limit, interior: interior, hevThreshold: hev, macroblockEdge: false)
            }
            normalEdge(u + 4 * uvStride, step: uvStride, along: 1, count: 8, limit: limit, interior: interior, hevThreshold: hev, macroblockEdge: false)
            normalEdge(v + 4 * uvStride, step: uvStride, along: 1, count: 8, limit: limit, interior: interior, hevThreshold: hev, macroblockEdge: false)
        }
    }
}
