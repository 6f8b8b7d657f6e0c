/// The loop filter 16 pixels along an edge at a time: the same arithmetic as the scalar kernels
/// (`filter2`, `filter4`, `filter6`, `needsFilter2`, `highEdgeVariance`), computed for every lane
/// and kept where the lane's masks say so. The scalar kernels stay as the careful twin
/// (KernelTwinTests compares both on random edges).
///
/// A horizontal edge reads its eight rows p3…q3 as vectors directly; a vertical edge reads 16
/// rows of 8 bytes across it and transposes them (``VP8Lanes/transpose(_:)``), then transposes
/// the result back. Chroma edges put the U edge in lanes 0–7 and the V edge in lanes 8–15, since
/// both use the same strength.
extension VP8LoopFilter {
    /// The eight sample vectors across an edge, p3 first; lane n is the n-th pixel along it.
    typealias EdgeSamples = (SIMD16<UInt8>, SIMD16<UInt8>, SIMD16<UInt8>, SIMD16<UInt8>,
                             SIMD16<UInt8>, SIMD16<UInt8>, SIMD16<UInt8>, SIMD16<UInt8>)

    /// Thresholds of one edge, broadcast once.
    struct LaneLimits {
        /// Normal filter: `2 * limit + 1` against `4|p0 − q0| + |p1 − q1|`.
        var edge: VP8Lanes.Wide
        var interior: VP8Lanes.Wide
        var hev: VP8Lanes.Wide

        init(limit: Int, interior: Int, hevThreshold: Int) {
            edge = VP8Lanes.Wide(repeating: Int16(truncatingIfNeeded: 2 &* limit &+ 1))
            self.interior = VP8Lanes.Wide(repeating: Int16(truncatingIfNeeded: interior))
            hev = VP8Lanes.Wide(repeating: Int16(truncatingIfNeeded: hevThreshold))
        }
    }

    /// Normal filter on eight lanes (one half of a 16-lane edge): returns new p2, p1, p0, q0, q1, q2.
    @inline(__always)
    static func normalLanes(_ p3: VP8Lanes.Wide, _ p2: VP8Lanes.Wide, _ p1: VP8Lanes.Wide, _ p0: VP8Lanes.Wide,
                            _ q0: VP8Lanes.Wide, _ q1: VP8Lanes.Wide, _ q2: VP8Lanes.Wide, _ q3: VP8Lanes.Wide,
                            _ limits: LaneLimits, macroblockEdge: Bool)
        -> (VP8Lanes.Wide, VP8Lanes.Wide, VP8Lanes.Wide, VP8Lanes.Wide, VP8Lanes.Wide, VP8Lanes.Wide) {
        typealias L = VP8Lanes
        let p1q1 = p1 &- q1
        let q0p0 = q0 &- p0
        let p1p0 = L.magnitude(p1 &- p0), q1q0 = L.magnitude(q1 &- q0)
        var inner = L.maximum(L.magnitude(p3 &- p2), L.magnitude(p2 &- p1))
        inner = L.maximum(inner, L.maximum(p1p0, q1q0))
        inner = L.maximum(inner, L.maximum(L.magnitude(q3 &- q2), L.magnitude(q2 &- q1)))
        let filtered = (L.magnitude(q0p0) &* 4 &+ L.magnitude(p1q1) .<= limits.edge) .& (inner .<= limits.interior)
        let hev = L.maximum(p1p0, q1q0) .> limits.hev

        // High edge variance: filter2 (p0 and q0 only).
        let hevA = q0p0 &* 3 &+ L.clamp(p1q1, -128, 127)
        let hevA1 = L.clamp((hevA &+ 4) &>> 3, -16, 15)
        let hevA2 = L.clamp((hevA &+ 3) &>> 3, -16, 15)
        let useHev = filtered .& hev
        var newP0 = p0.replacing(with: p0 &+ hevA2, where: useHev)
        var newQ0 = q0.replacing(with: q0 &- hevA1, where: useHev)
        var newP1 = p1, newQ1 = q1, newP2 = p2, newQ2 = q2
        let useOther = filtered .& .!hev
        if macroblockEdge {  // filter6
            let a = L.clamp(hevA, -128, 127)
            let a1 = (a &* 27 &+ 63) &>> 7, a2 = (a &* 18 &+ 63) &>> 7, a3 = (a &* 9 &+ 63) &>> 7
            newP2 = p2.replacing(with: p2 &+ a3, where: useOther)
            newP1 = p1.replacing(with: p1 &+ a2, where: useOther)
            newP0 = newP0.replacing(with: p0 &+ a1, where: useOther)
            newQ0 = newQ0.replacing(with: q0 &- a1, where: useOther)
            newQ1 = q1.replacing(with: q1 &- a2, where: useOther)
            newQ2 = q2.replacing(with: q2 &- a3, where: useOther)
        } else {  // filter4
            let a = q0p0 &* 3
            let a1 = L.clamp((a &+ 4) &>> 3, -16, 15)
            let a2 = L.clamp((a &+ 3) &>> 3, -16, 15)
            let a3 = (a1 &+ 1) &>> 1
            newP1 = p1.replacing(with: p1 &+ a3, where: useOther)
            newP0 = newP0.replacing(with: p0 &+ a2, where: useOther)
            newQ0 = newQ0.replacing(with: q0 &- a1, where: useOther)
            newQ1 = q1.replacing(with: q1 &- a3, where: useOther)
        }
        return (newP2, newP1, newP0, newQ0, newQ1, newQ2)
    }

    /// Normal filter on 16 lanes: `s` is replaced by the filtered samples (p3 and q3 unchanged).
    @inline(__always)
    static func normalEdgeLanes(_ s: inout EdgeSamples, _ limits: LaneLimits, macroblockEdge: Bool) {
        typealias L = VP8Lanes
        let p3 = L.split(s.0), p2 = L.split(s.1), p1 = L.split(s.2), p0 = L.split(s.3)
        let q0 = L.split(s.4), q1 = L.split(s.5), q2 = L.split(s.6), q3 = L.split(s.7)
        let even = normalLanes(p3.even, p2.even, p1.even, p0.even, q0.even, q1.even, q2.even, q3.even,
                               limits, macroblockEdge: macroblockEdge)
        let odd = normalLanes(p3.odd, p2.odd, p1.odd, p0.odd, q0.odd, q1.odd, q2.odd, q3.odd,
                              limits, macroblockEdge: macroblockEdge)
        s.1 = L.join(even.0, odd.0)
        s.2 = L.join(even.1, odd.1)
        s.3 = L.join(even.2, odd.2)
        s.4 = L.join(even.3, odd.3)
        s.5 = L.join(even.4, odd.4)
        s.6 = L.join(even.5, odd.5)
    }

    /// Simple filter on eight lanes: new p0, q0.
    @inline(__always)
    static func simpleLanes(_ p1: VP8Lanes.Wide, _ p0: VP8Lanes.Wide, _ q0: VP8Lanes.Wide, _ q1: VP8Lanes.Wide,
                            _ edge: VP8Lanes.Wide) -> (VP8Lanes.Wide, VP8Lanes.Wide) {
        typealias L = VP8Lanes
        let p1q1 = p1 &- q1, q0p0 = q0 &- p0
        let filtered = L.magnitude(q0p0) &* 4 &+ L.magnitude(p1q1) .<= edge
        let a = q0p0 &* 3 &+ L.clamp(p1q1, -128, 127)
        let a1 = L.clamp((a &+ 4) &>> 3, -16, 15)
        let a2 = L.clamp((a &+ 3) &>> 3, -16, 15)
        return (p0.replacing(with: p0 &+ a2, where: filtered), q0.replacing(with: q0 &- a1, where: filtered))
    }

    /// Simple filter on 16 lanes of p1, p0, q0, q1 (`s.2 … s.5`).
    @inline(__always)
    static func simpleEdgeLanes(_ s: inout EdgeSamples, edge: VP8Lanes.Wide) {
        typealias L = VP8Lanes
        let p1 = L.split(s.2), p0 = L.split(s.3), q0 = L.split(s.4), q1 = L.split(s.5)
        let even = simpleLanes(p1.even, p0.even, q0.even, q1.even, edge)
        let odd = simpleLanes(p1.odd, p0.odd, q0.odd, q1.odd, edge)
        s.3 = L.join(even.0, odd.0)
        s.4 = L.join(even.1, odd.1)
    }

    // MARK: Reading and writing edges

    /// The rows p3…q3 of a horizontal edge at `p` (q0's row), 16 pixels wide.
    @inline(__always)
    static func loadRows(_ p: UnsafeMutablePointer<UInt8>, stride: Int) -> EdgeSamples {
        @inline(__always) func row(_ k: Int) -> SIMD16<UInt8> {
            UnsafeRawPointer(p + k &* stride).loadUnaligned(as: SIMD16<UInt8>.self)
        }
        return (row(-4), row(-3), row(-2), row(-1), row(0), row(1), row(2), row(3))
    }

    @inline(__always)
    static func storeRows(_ s: EdgeSamples, _ p: UnsafeMutablePointer<UInt8>, stride: Int) {
        @inline(__always) func row(_ k: Int, _ v: SIMD16<UInt8>) {
            UnsafeMutableRawPointer(p + k &* stride).storeBytes(of: v, as: SIMD16<UInt8>.self)
        }
        row(-3, s.1); row(-2, s.2); row(-1, s.3); row(0, s.4); row(1, s.5); row(2, s.6)
    }

    /// The rows p3…q3 of a horizontal chroma edge: U (8 wide) in lanes 0–7, V in lanes 8–15.
    @inline(__always)
    static func loadChromaRows(_ u: UnsafeMutablePointer<UInt8>, _ v: UnsafeMutablePointer<UInt8>, stride: Int) -> EdgeSamples {
        @inline(__always) func row(_ k: Int) -> SIMD16<UInt8> { VP8Lanes.load(u + k &* stride, v + k &* stride) }
        return (row(-4), row(-3), row(-2), row(-1), row(0), row(1), row(2), row(3))
    }

    @inline(__always)
    static func storeChromaRows(_ s: EdgeSamples, _ u: UnsafeMutablePointer<UInt8>, _ v: UnsafeMutablePointer<UInt8>, stride: Int) {
        @inline(__always) func row(_ k: Int, _ x: SIMD16<UInt8>) { VP8Lanes.store(x, u + k &* stride, v + k &* stride) }
        row(-3, s.1); row(-2, s.2); row(-1, s.3); row(0, s.4); row(1, s.5); row(2, s.6)
    }

    /// The columns p3…q3 of a vertical edge: 8 bytes from `first - 4` on each of 8 rows give
    /// lanes 0–7, the same from `second` lanes 8–15.
    @inline(__always)
    static func loadColumns(_ first: UnsafeMutablePointer<UInt8>, _ second: UnsafeMutablePointer<UInt8>, stride: Int) -> EdgeSamples {
        @inline(__always) func rows(_ k: Int) -> SIMD2<UInt64> {
            SIMD2(UnsafeRawPointer(first + k &* stride - 4).loadUnaligned(as: UInt64.self),
                  UnsafeRawPointer(second + k &* stride - 4).loadUnaligned(as: UInt64.self))
        }
        var r = (rows(0), rows(1), rows(2), rows(3), rows(4), rows(5), rows(6), rows(7))
        VP8Lanes.transpose(&r)
        @inline(__always) func bytes(_ x: SIMD2<UInt64>) -> SIMD16<UInt8> { unsafeBitCast(x, to: SIMD16<UInt8>.self) }
        return (bytes(r.0), bytes(r.1), bytes(r.2), bytes(r.3), bytes(r.4), bytes(r.5), bytes(r.6), bytes(r.7))
    }

    @inline(__always)
    static func storeColumns(_ s: EdgeSamples, _ first: UnsafeMutablePointer<UInt8>, _ second: UnsafeMutablePointer<UInt8>,
                             stride: Int) {
        @inline(__always) func words(_ x: SIMD16<UInt8>) -> SIMD2<UInt64> { unsafeBitCast(x, to: SIMD2<UInt64>.self) }
        var r = (words(s.0), words(s.1), words(s.2), words(s.3), words(s.4), words(s.5), words(s.6), words(s.7))
        VP8Lanes.transpose(&r)
        @inline(__always) func rows(_ k: Int, _ x: SIMD2<UInt64>) {
            UnsafeMutableRawPointer(first + k &* stride - 4).storeBytes(of: x[0], as: UInt64.self)
            UnsafeMutableRawPointer(second + k &* stride - 4).storeBytes(of: x[1], as: UInt64.self)
        }
        rows(0, r.0); rows(1, r.1); rows(2, r.2); rows(3, r.3); rows(4, r.4); rows(5, r.5); rows(6, r.6); rows(7, r.7)
    }

    // MARK: Macroblocks

    /// ``filterMacroblock(y:yStride:u:v:uvStride:strength:simple:hasLeft:hasTop:)`` in lanes: same
    /// order of edges, same results.
    static func filterMacroblockLanes(y: UnsafeMutablePointer<UInt8>, yStride: Int, u: UnsafeMutablePointer<UInt8>,
                                      v: UnsafeMutablePointer<UInt8>, uvStride: Int, strength: Strength,
                                      simple: Bool, hasLeft: Bool, hasTop: Bool) {
        let limit = strength.limit
        guard limit > 0 else { return }
        let lumaRows8 = 8 &* yStride
        if simple {
            let outer = VP8Lanes.Wide(repeating: Int16(truncatingIfNeeded: 2 &* (limit &+ 4) &+ 1))
            let innerEdge = VP8Lanes.Wide(repeating: Int16(truncatingIfNeeded: 2 &* limit &+ 1))
            if hasLeft { simpleVertical(y, y + lumaRows8, yStride, outer) }
            if strength.filterInner {
                for k in 1...3 { simpleVertical(y + 4 &* k, y + 4 &* k + lumaRows8, yStride, innerEdge) }
            }
            if hasTop { simpleHorizontal(y, yStride, outer) }
            if strength.filterInner {
                for k in 1...3 { simpleHorizontal(y + 4 &* k &* yStride, yStride, innerEdge) }
            }
            return
        }
        let outer = LaneLimits(limit: limit &+ 4, interior: strength.interiorLimit, hevThreshold: strength.hevThreshold)
        let inner = LaneLimits(limit: limit, interior: strength.interiorLimit, hevThreshold: strength.hevThreshold)
        if hasLeft {
            var s = loadColumns(y, y + lumaRows8, stride: yStride)
            normalEdgeLanes(&s, outer, macroblockEdge: true)
            storeColumns(s, y, y + lumaRows8, stride: yStride)
            var c = loadColumns(u, v, stride: uvStride)
            normalEdgeLanes(&c, outer, macroblockEdge: true)
            storeColumns(c, u, v, stride: uvStride)
        }
        if strength.filterInner {
            for k in 1...3 {
                let at = y + 4 &* k
                var s = loadColumns(at, at + lumaRows8, stride: yStride)
                normalEdgeLanes(&s, inner, macroblockEdge: false)
                storeColumns(s, at, at + lumaRows8, stride: yStride)
            }
            var c = loadColumns(u + 4, v + 4, stride: uvStride)
            normalEdgeLanes(&c, inner, macroblockEdge: false)
            storeColumns(c, u + 4, v + 4, stride: uvStride)
        }
        if hasTop {
            var s = loadRows(y, stride: yStride)
            normalEdgeLanes(&s, outer, macroblockEdge: true)
            storeRows(s, y, stride: yStride)
            var c = loadChromaRows(u, v, stride: uvStride)
            normalEdgeLanes(&c, outer, macroblockEdge: true)
            storeChromaRows(c, u, v, stride: uvStride)
        }
        if strength.filterInner {
            for k in 1...3 {
                let at = y + 4 &* k &* yStride
                var s = loadRows(at, stride: yStride)
                normalEdgeLanes(&s, inner, macroblockEdge: false)
                storeRows(s, at, stride: yStride)
            }
            let u4 = u + 4 &* uvStride, v4 = v + 4 &* uvStride
            var c = loadChromaRows(u4, v4, stride: uvStride)
            normalEdgeLanes(&c, inner, macroblockEdge: false)
            storeChromaRows(c, u4, v4, stride: uvStride)
        }
    }

    @inline(__always)
    static func simpleVertical(_ first: UnsafeMutablePointer<UInt8>, _ second: UnsafeMutablePointer<UInt8>, _ stride: Int,
                               _ edge: VP8Lanes.Wide) {
        var s = loadColumns(first, second, stride: stride)
        simpleEdgeLanes(&s, edge: edge)
        storeColumns(s, first, second, stride: stride)
    }

    @inline(__always)
    static func simpleHorizontal(_ p: UnsafeMutablePointer<UInt8>, _ stride: Int, _ edge: VP8Lanes.Wide) {
        var s = loadRows(p, stride: stride)
        simpleEdgeLanes(&s, edge: edge)
        storeRows(s, p, stride: stride)
    }
}
