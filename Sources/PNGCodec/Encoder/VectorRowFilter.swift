/// The encoder's filters (PNG 9.2) 16 bytes at a time, and the per-row filter choice.
///
/// Filtering, unlike unfiltering, has no dependency between bytes: `a`, `b` and `c` are raw
/// samples of the current and previous rows, so every filter vectorises, Paeth included. Each
/// kernel does the first `stride` bytes (no left neighbour) and the tail of fewer than 16 bytes
/// with the scalar ``RowFilter/apply(_:row:prior:output:count:stride:)``, its careful twin, which
/// the tests compare it with.
enum VectorRowFilter {
    typealias Bytes = SIMD16<UInt8>

    /// Writes `count` bytes of `row` filtered with `type` into `output` (as ``RowFilter/apply``).
    static func apply(_ type: FilterType, row: UnsafePointer<UInt8>, prior: UnsafePointer<UInt8>,
                      output: UnsafeMutablePointer<UInt8>, count: Int, stride: Int) {
        switch type {
        case .none: output.update(from: row, count: count)
        case .sub: run(row, prior, output, count, stride, .sub) { x, a, _, _ in x &- a }
        case .up: run(row, prior, output, count, stride, .up) { x, _, b, _ in x &- b }
        case .average: run(row, prior, output, count, stride, .average) { x, a, b, _ in x &- average(a, b) }
        case .paeth: run(row, prior, output, count, stride, .paeth) { x, a, b, c in x &- paeth(a, b, c) }
        }
    }

    /// The filter whose output has the smallest sum of bytes read as signed magnitudes (the
    /// PNG 12.8 heuristic), all five costed in one pass over the row; ties go to the lower type.
    static func cheapestFilter(row: UnsafePointer<UInt8>, prior: UnsafePointer<UInt8>, count: Int, stride: Int) -> FilterType {
        var costs = SIMD8<Int>(repeating: 0)
        let head = min(stride, count)
        // The first pixel has no left neighbour: a = c = 0.
        for i in 0..<head {
            let x = row[i], b = prior[i]
            costs &+= SIMD8(magnitude(x), magnitude(x), magnitude(x &- b), magnitude(x &- b >> 1),
                            magnitude(x &- b), 0, 0, 0)
        }
        var i = head
        // Sums in 16-bit lanes (two magnitudes ≤ 128 per lane and step): at most 255 steps
        // before they are folded into `costs`.
        while i + 16 <= count {
            var none = Pairs(), sub = none, up = none, avg = none, pae = none
            var steps = 0
            while i + 16 <= count && steps < 255 {
                let x = load(row + i), a = load(row + i - stride), b = load(prior + i), c = load(prior + i - stride)
                none &+= pairSums(x)
                sub &+= pairSums(x &- a)
                up &+= pairSums(x &- b)
                avg &+= pairSums(x &- average(a, b))
                pae &+= pairSums(x &- paeth(a, b, c))
                i += 16
                steps += 1
            }
            costs &+= SIMD8(sum(none), sum(sub), sum(up), sum(avg), sum(pae), 0, 0, 0)
        }
        while i < count {
            let x = row[i], a = row[i - stride], b = prior[i], c = prior[i - stride]
            let avg = UInt8(truncatingIfNeeded: (UInt16(a) &+ UInt16(b)) >> 1)
            costs &+= SIMD8(magnitude(x), magnitude(x &- a), magnitude(x &- b), magnitude(x &- avg),
                            magnitude(x &- RowUnfilter.paeth(a, b, c)), 0, 0, 0)
            i += 1
        }
        var best = FilterType.none
        for type in FilterType.allCases where costs[Int(type.rawValue)] < costs[Int(best.rawValue)] { best = type }
        return best
    }

    // MARK: - Kernels

    /// Runs a filter: scalar for the first pixel and the tail, `vector` (x, a, b, c → output) in between.
    @inline(__always)
    private static func run(_ row: UnsafePointer<UInt8>, _ prior: UnsafePointer<UInt8>, _ output: UnsafeMutablePointer<UInt8>,
                            _ count: Int, _ stride: Int, _ type: FilterType,
                            _ vector: (Bytes, Bytes, Bytes, Bytes) -> Bytes) {
        let head = min(stride, count)
        RowFilter.apply(type, row: row, prior: prior, output: output, count: head, stride: stride)
        var i = head
        while i + 16 <= count {
            let result = vector(load(row + i), load(row + i - stride), load(prior + i), load(prior + i - stride))
            UnsafeMutableRawPointer(output + i).storeBytes(of: result, as: Bytes.self)
            i += 16
        }
        RowFilter.apply(type, row: row, prior: prior, output: output, count: count, stride: stride, from: i)
    }

    @inline(__always)
    private static func load(_ pointer: UnsafePointer<UInt8>) -> Bytes {
        UnsafeRawPointer(pointer).loadUnaligned(as: Bytes.self)
    }

    /// floor((a + b) / 2) without widening: the common bits plus half the differing ones.
    @inline(__always)
    static func average(_ a: Bytes, _ b: Bytes) -> Bytes {
        (a & b) &+ ((a ^ b) &>> 1)
    }

    /// The Paeth predictor (PNG 9.4) in 8-bit lanes: pa = |b − c| and pb = |a − c| fit a byte;
    /// pc = |(a − c) + (b − c)| is pa + pb when both differences have the same sign and |pa − pb|
    /// otherwise, saturated at 255, which keeps every `<=` comparison's outcome since pa, pb ≤ 255.
    @inline(__always)
    static func paeth(_ a: Bytes, _ b: Bytes, _ c: Bytes) -> Bytes {
        let pa = absoluteDifference(b, c)
        let pb = absoluteDifference(a, c)
        let sum = pa &+ pb
        let saturated = sum.replacing(with: 255, where: sum .< pa)
        let sameSign = .!((a .>= c) .^ (b .>= c))
        let pc = absoluteDifference(pa, pb).replacing(with: saturated, where: sameSign)
        return c.replacing(with: b, where: pb .<= pc).replacing(with: a, where: (pa .<= pb) .& (pa .<= pc))
    }

    /// |x − y| per lane. (Written with masks: the generic `pointwiseMin`/`pointwiseMax` are not
    /// always specialised and inlined.)
    @inline(__always)
    private static func absoluteDifference(_ x: Bytes, _ y: Bytes) -> Bytes {
        let xMinusY = x &- y
        return xMinusY.replacing(with: y &- x, where: x .< y)
    }

    typealias Pairs = SIMD8<UInt16>

    /// The magnitudes of the bytes read as signed, min(v, 256 − v), summed in adjacent pairs.
    @inline(__always)
    private static func pairSums(_ v: Bytes) -> Pairs {
        let negated = 0 &- v
        let magnitudes = v.replacing(with: negated, where: negated .< v)
        let words = unsafeBitCast(magnitudes, to: Pairs.self)
        return (words & 0xFF) &+ (words &>> 8)
    }

    @inline(__always)
    private static func magnitude(_ v: UInt8) -> Int {
        Int(min(v, 0 &- v))
    }

    @inline(__always)
    private static func sum(_ v: Pairs) -> Int {
        var total = 0
        for lane in 0..<Pairs.scalarCount { total &+= Int(v[lane]) }
        return total
    }
}
