/// Reverses the row filters of PNG 9.2 (filter method 0).
///
/// Names as in the spec: for byte `x` of the row, `a` is the byte `stride` bytes to the left
/// (0 before the row start), `b` the byte above and `c` the byte above-left. `prior` is the
/// reconstructed previous row of the same pass, or a row of zeros for the first row, which
/// makes the spec's "first row" special cases fall out of the same code.
///
/// `filtered` and `output` may be the same memory (in-place): each byte is read before it is written.
/// The kernel is chosen once per row; the stride is a literal at each call so the compiler
/// specialises the loops for 1 ... 8 bytes per pixel.
enum RowUnfilter {
    /// Reconstructs `count` bytes. `stride` is the filter's bytes per pixel, 1 ... 8.
    static func apply(_ type: FilterType, filtered: UnsafePointer<UInt8>, prior: UnsafePointer<UInt8>,
                      output: UnsafeMutablePointer<UInt8>, count: Int, stride: Int) {
        switch type {
        case .none:
            if UnsafePointer(output) != filtered { output.update(from: filtered, count: count) }
        case .up:
            up(filtered, prior, output, count)
        case .sub, .average, .paeth:
            switch stride {
            case 1: withStride(type, filtered, prior, output, count, 1)
            case 2: withStride(type, filtered, prior, output, count, 2)
            case 3: withStride(type, filtered, prior, output, count, 3)
            case 4: withStride(type, filtered, prior, output, count, 4)
            case 6: withStride(type, filtered, prior, output, count, 6)
            case 8: withStride(type, filtered, prior, output, count, 8)
            default: withStride(type, filtered, prior, output, count, stride)
            }
        }
    }

    /// Up: `x + b`. No dependency between bytes, so the loop vectorises.
    private static func up(_ f: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>,
                           _ out: UnsafeMutablePointer<UInt8>, _ count: Int) {
        var i = 0
        let vectorEnd = count & ~15
        while i < vectorEnd {
            let x = UnsafeRawPointer(f + i).loadUnaligned(as: SIMD16<UInt8>.self)
            let above = UnsafeRawPointer(b + i).loadUnaligned(as: SIMD16<UInt8>.self)
            UnsafeMutableRawPointer(out + i).storeBytes(of: x &+ above, as: SIMD16<UInt8>.self)
            i += 16
        }
        while i < count { out[i] = f[i] &+ b[i]; i += 1 }
    }

    @inline(__always)
    private static func withStride(_ type: FilterType, _ f: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>,
                                   _ out: UnsafeMutablePointer<UInt8>, _ count: Int, _ stride: Int) {
        // The first pixel has a = c = 0: Sub copies, Average adds b/2, Paeth picks b.
        let head = min(stride, count)
        switch type {
        case .sub:
            for i in 0..<head { out[i] = f[i] }
            var i = head
            while i < count { out[i] = f[i] &+ out[i - stride]; i += 1 }
        case .average:
            for i in 0..<head { out[i] = f[i] &+ (b[i] >> 1) }
            var i = head
            while i < count {
                // (a + b) >> 1 computed in 16 bits: the sum may reach 510.
                out[i] = f[i] &+ UInt8(truncatingIfNeeded: (UInt16(out[i - stride]) &+ UInt16(b[i])) >> 1)
                i += 1
            }
        case .paeth:
            for i in 0..<head { out[i] = f[i] &+ b[i] }
            var i = head
            while i < count {
                out[i] = f[i] &+ paeth(out[i - stride], b[i], b[i - stride])
                i += 1
            }
        case .none, .up:
            break
        }
    }

    /// The Paeth predictor (PNG 9.4): whichever of a, b, c is closest to `a + b - c`, ties to a, then b.
    @inline(__always)
    static func paeth(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
        let ia = Int16(a), ib = Int16(b), ic = Int16(c)
        // p - a = b - c, p - b = a - c, p - c = a + b - 2c: no need to form p itself.
        let pa = abs(ib &- ic), pb = abs(ia &- ic), pc = abs(ia &+ ib &- ic &- ic)
        if pa <= pb && pa <= pc { return a }
        return pb <= pc ? b : c
    }
}
