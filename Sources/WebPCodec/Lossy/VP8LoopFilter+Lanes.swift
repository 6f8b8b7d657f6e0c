/// The loop filter 16 pixels along an edge at a time, in RFC 6386's own form: signed bytes with
/// saturation (``VP8SignedBytes``), every adjustment computed for every lane and kept where the
/// lane's masks say so. It gives what the scalar kernels (`filter2`, `filter4`, `filter6`,
/// `needsFilter2`, `highEdgeVariance`, libwebp's clipping tables) give. The scalar kernels stay as the careful twin
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
        /// `2|p0 − q0| + |p1 − q1| / 2 <= edge` is the scalar `4|p0 − q0| + |p1 − q1| <= 2·limit + 1`
        /// in bytes (the two agree for every integer, and `limit` is at most 193).
        var edge: SIMD16<UInt8>
        var interior: SIMD16<UInt8>
        var hev: SIMD16<UInt8>

        init(limit: Int, interior: Int, hevThreshold: Int) {
            edge = SIMD16(repeating: UInt8(clamping: limit))
            self.interior = SIMD16(repeating: UInt8(clamping: interior))
            hev = SIMD16(repeating: UInt8(clamping: hevThreshold))
        }
    }

    /// Lanes whose edge difference is small enough to filter (`needsFilter` of 16 lanes).
    @inline(always)
    static func edgeMask(_ p1: SIMD16<UInt8>, _ p0: SIMD16<UInt8>, _ q0: SIMD16<UInt8>, _ q1: SIMD16<UInt8>,
                         _ edge: SIMD16<UInt8>) -> SIMDMask<SIMD16<Int8>> {
        typealias S = VP8SignedBytes
        let across = S.distance(p0, q0)
        let outer = S.distance(p1, q1) &>> 1
        return S.atMost(S.addUnsigned(S.addUnsigned(across, across), outer), edge)
    }

    /// RFC 6386's `common_adjust` value with outer taps, c(c(p1 − q1) + 3·(q0 − p0)): saturating
    /// one step at a time gives the same as clamping the exact sum once, since every step adds
    /// the same (clamped) q0 − p0 and the partial sums move monotonically.
    @inline(always)
    static func outerAdjust(_ p1: SIMD16<Int8>, _ p0: SIMD16<Int8>, _ q0: SIMD16<Int8>, _ q1: SIMD16<Int8>) -> SIMD16<Int8> {
        typealias S = VP8SignedBytes
        let step = S.subtract(q0, p0)
        return S.add(S.add(S.add(S.subtract(p1, q1), step), step), step)
    }

    /// Normal filter on 16 lanes: `s` is replaced by the filtered samples (p3 and q3 unchanged).
    @inline(__always)
    static func normalEdgeLanes(_ s: inout EdgeSamples, _ limits: LaneLimits, macroblockEdge: Bool) {
        typealias S = VP8SignedBytes
        let p1p0 = S.distance(s.2, s.3), q1q0 = S.distance(s.5, s.4)
        var inner = S.maximum(S.distance(s.0, s.1), S.distance(s.1, s.2))
        inner = S.maximum(inner, S.maximum(p1p0, q1q0))
        inner = S.maximum(inner, S.maximum(S.distance(s.7, s.6), S.distance(s.6, s.5)))
        let filtered = edgeMask(s.2, s.3, s.4, s.5, limits.edge) .& S.atMost(inner, limits.interior)
        let hev = .!S.atMost(S.maximum(p1p0, q1q0), limits.hev)
        let p2 = S.signed(s.1), p1 = S.signed(s.2), p0 = S.signed(s.3)
        let q0 = S.signed(s.4), q1 = S.signed(s.5), q2 = S.signed(s.6)

        // High edge variance: the outer-tap adjustment of p0 and q0 only.
        let a = outerAdjust(p1, p0, q0, q1)
        let useHev = filtered .& hev, useOther = filtered .& .!hev
        var newP0 = p0.replacing(with: S.add(p0, S.shiftRight(S.add(a, SIMD16(repeating: 3)), 3)), where: useHev)
        var newQ0 = q0.replacing(with: S.subtract(q0, S.shiftRight(S.add(a, SIMD16(repeating: 4)), 3)), where: useHev)
        if macroblockEdge {  // filter6: 27/18/9 · a in 7-bit fixed point, rounded
            let wide = S.widen(a)
            let a1 = S.clampNarrow((wide &* 27 &+ 63) &>> 7)
            let a2 = S.clampNarrow((wide &* 18 &+ 63) &>> 7)
            let a3 = S.clampNarrow((wide &* 9 &+ 63) &>> 7)
            newP0 = newP0.replacing(with: S.add(p0, a1), where: useOther)
            newQ0 = newQ0.replacing(with: S.subtract(q0, a1), where: useOther)
            s.1 = S.unsigned(p2.replacing(with: S.add(p2, a3), where: useOther))
            s.2 = S.unsigned(p1.replacing(with: S.add(p1, a2), where: useOther))
            s.5 = S.unsigned(q1.replacing(with: S.subtract(q1, a2), where: useOther))
            s.6 = S.unsigned(q2.replacing(with: S.subtract(q2, a3), where: useOther))
        } else {  // filter4: no outer taps; p1 and q1 move by half of q0's step, rounded
            let step = S.subtract(q0, p0)
            let inner3 = S.add(S.add(step, step), step)
            let a1 = S.shiftRight(S.add(inner3, SIMD16(repeating: 4)), 3)
            let a2 = S.shiftRight(S.add(inner3, SIMD16(repeating: 3)), 3)
            let a3 = S.shiftRight(a1 &+ 1, 1)  // a1 is within −16…15: no overflow
            newP0 = newP0.replacing(with: S.add(p0, a2), where: useOther)
            newQ0 = newQ0.replacing(with: S.subtract(q0, a1), where: useOther)
            s.2 = S.unsigned(p1.replacing(with: S.add(p1, a3), where: useOther))
            s.5 = S.unsigned(q1.replacing(with: S.subtract(q1, a3), where: useOther))
        }
        s.3 = S.unsigned(newP0)
        s.4 = S.unsigned(newQ0)
    }

    /// Simple filter on 16 lanes of p1, p0, q0, q1 (`s.2 … s.5`): `edge` is the limit as in
    /// ``LaneLimits/edge``.
    @inline(__always)
    static func simpleEdgeLanes(_ s: inout EdgeSamples, edge: SIMD16<UInt8>) {
        typealias S = VP8SignedBytes
        let filtered = edgeMask(s.2, s.3, s.4, s.5, edge)
        let p1 = S.signed(s.2), p0 = S.signed(s.3), q0 = S.signed(s.4), q1 = S.signed(s.5)
        let a = outerAdjust(p1, p0, q0, q1)
        s.3 = S.unsigned(p0.replacing(with: S.add(p0, S.shiftRight(S.add(a, SIMD16(repeating: 3)), 3)), where: filtered))
        s.4 = S.unsigned(q0.replacing(with: S.subtract(q0, S.shiftRight(S.add(a, SIMD16(repeating: 4)), 3)), where: filtered))
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
            let outer = SIMD16<UInt8>(repeating: UInt8(clamping: limit &+ 4))
            let innerEdge = SIMD16<UInt8>(repeating: UInt8(clamping: limit))
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
                               _ edge: SIMD16<UInt8>) {
        var s = loadColumns(first, second, stride: stride)
        simpleEdgeLanes(&s, edge: edge)
        storeColumns(s, first, second, stride: stride)
    }

    @inline(__always)
    static func simpleHorizontal(_ p: UnsafeMutablePointer<UInt8>, _ stride: Int, _ edge: SIMD16<UInt8>) {
        var s = loadRows(p, stride: stride)
        simpleEdgeLanes(&s, edge: edge)
        storeRows(s, p, stride: stride)
    }
}
