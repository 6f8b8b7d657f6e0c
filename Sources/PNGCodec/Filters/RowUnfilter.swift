/// Reverses the row filters of PNG 9.2 (filter method 0).
///
/// Names as in the spec: for byte `x` of the row, `a` is the byte `stride` bytes to the left
/// (0 before the row start), `b` the byte above and `c` the byte above-left. `prior` is the
/// reconstructed previous row of the same pass, or a row of zeros for the first row, which
/// makes the spec's "first row" special cases fall out of the same code.
///
/// `filtered` and `output` must not overlap: the 3-byte-pixel kernels store 4 bytes at a time,
/// one byte ahead of the pixel they finish (never past `count`).
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
        case .paeth where stride == 3 || stride == 4:
            paethPixels(filtered, prior, output, count, stride)
        case .average where stride == 3 || stride == 4:
            averagePixels(filtered, prior, output, count, stride)
        case .sub where stride == 3 || stride == 4:
            subPixels(filtered, output, count, stride)
        case .paeth where stride == 1:
            paethBytes(filtered, prior, output, count)
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

    /// Paeth for 1-byte pixels (8-bit gray, palette indices, packed samples): a and c carried in
    /// registers from byte to byte, the choice made with conditional moves (no branches to
    /// mispredict on noisy rows).
    private static func paethBytes(_ f: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>,
                                   _ out: UnsafeMutablePointer<UInt8>, _ count: Int) {
        guard count > 0 else { return }
        // The first byte has a = c = 0: Paeth picks b.
        var a = Int(f[0] &+ b[0]), c = Int(b[0])
        out[0] = UInt8(truncatingIfNeeded: a)
        var i = 1
        while i < count {
            let above = Int(b[i])
            let towardsB = above &- c, towardsA = a &- c
            let pa = abs(towardsB), pb = abs(towardsA), pc = abs(towardsB &+ towardsA)
            let bOrC = pb <= pc ? above : c
            let predicted = pa <= pb && pa <= pc ? a : bOrC
            a = Int(f[i] &+ UInt8(truncatingIfNeeded: predicted))
            out[i] = UInt8(truncatingIfNeeded: a)
            c = above
            i += 1
        }
    }

    /// Loads one 3- or 4-byte pixel into the low lanes of a vector (lane 3 is 0 for 3 bytes:
    /// never read past the pixel, the row may end there).
    @inline(__always)
    private static func loadPixel(_ p: UnsafePointer<UInt8>, _ stride: Int) -> SIMD4<Int16> {
        if stride == 4 {
            let v = UnsafeRawPointer(p).loadUnaligned(as: SIMD4<UInt8>.self)
            return SIMD4<Int16>(truncatingIfNeeded: v)
        }
        return SIMD4<Int16>(Int16(p[0]), Int16(p[1]), Int16(p[2]), 0)
    }

    @inline(__always)
    private static func storePixel(_ v: SIMD4<Int16>, _ p: UnsafeMutablePointer<UInt8>, _ stride: Int) {
        let bytes = SIMD4<UInt8>(truncatingIfNeeded: v)
        if stride == 4 {
            UnsafeMutableRawPointer(p).storeBytes(of: bytes, as: SIMD4<UInt8>.self)
        } else {
            p[0] = bytes[0]; p[1] = bytes[1]; p[2] = bytes[2]
        }
    }

    /// Paeth for 3- and 4-byte pixels: all channels of a pixel at once in vector lanes. The
    /// sequential dependency is per pixel (a = the pixel just reconstructed), not per byte.
    private static func paethPixels(_ f: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>,
                                    _ out: UnsafeMutablePointer<UInt8>, _ count: Int, _ stride: Int) {
        if stride == 4 { paethPixels4(f, b, out, count) } else { paethPixels3(f, b, out, count) }
    }

    private static func paethPixels4(_ f: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>,
                                     _ out: UnsafeMutablePointer<UInt8>, _ count: Int) {
        paethPixelLoop(f, b, out, count, 4)
    }

    private static func paethPixels3(_ f: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>,
                                     _ out: UnsafeMutablePointer<UInt8>, _ count: Int) {
        paethPixelLoop(f, b, out, count, 3)
    }

    @inline(__always)
    private static func paethPixelLoop(_ f: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>,
                                       _ out: UnsafeMutablePointer<UInt8>, _ count: Int, _ stride: Int) {
        var a = SIMD4<Int16>(repeating: 0), c = SIMD4<Int16>(repeating: 0)
        var i = 0
        // While a 4th byte exists after the pixel, 3-byte pixels are moved as 4 bytes: the extra
        // lane is computed and stored but the next pixel's store overwrites it (lanes never mix).
        while i + 4 <= count {
            let x = paethStep(f + i, b + i, &a, &c, 4)
            storePixel(x, out + i, 4)
            i += stride
        }
        while i + stride <= count {
            let x = paethStep(f + i, b + i, &a, &c, stride)
            storePixel(x, out + i, stride)
            i += stride
        }
    }

    /// One pixel of Paeth: returns the reconstructed pixel and moves `a` and `c` along.
    @inline(__always)
    private static func paethStep(_ f: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>,
                                  _ a: inout SIMD4<Int16>, _ c: inout SIMD4<Int16>, _ width: Int) -> SIMD4<Int16> {
        let above = loadPixel(b, width)
        let x = (loadPixel(f, width) &+ paethPredictor(a, above, c)) & 0xFF
        a = x
        c = above
        return x
    }

    /// The Paeth predictor of PNG 9.4 for every lane: whichever of a, b, c is closest to
    /// p = a + b - c, ties to a, then b.
    ///
    /// p - a = b - c, p - b = a - c and p - c = (b - c) + (a - c), so the three distances come
    /// from two differences; the choice is "a unless pa > pb or pa > pc, then b unless pb > pc",
    /// as two vector selects. (Measured: and/or masks built from arithmetic shifts instead of
    /// the compares cost 5 % more instructions.)
    @inline(__always)
    static func paethPredictor(_ a: SIMD4<Int16>, _ b: SIMD4<Int16>, _ c: SIMD4<Int16>) -> SIMD4<Int16> {
        let towardsB = b &- c, towardsA = a &- c
        let pa = magnitude(towardsB), pb = magnitude(towardsA), pc = magnitude(towardsB &+ towardsA)
        let notA = (pa .> pb) .| (pa .> pc)
        let bOrC = b.replacing(with: c, where: pb .> pc)
        return a.replacing(with: bOrC, where: notA)
    }

    /// Average for 3- and 4-byte pixels, a pixel at a time (4-byte moves as in Paeth).
    private static func averagePixels(_ f: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>,
                                      _ out: UnsafeMutablePointer<UInt8>, _ count: Int, _ stride: Int) {
        var a = SIMD4<Int16>(repeating: 0)
        var i = 0
        while i + 4 <= count {
            a = (loadPixel(f + i, 4) &+ ((a &+ loadPixel(b + i, 4)) &>> 1)) & 0xFF
            storePixel(a, out + i, 4)
            i += stride
        }
        while i + stride <= count {
            a = (loadPixel(f + i, stride) &+ ((a &+ loadPixel(b + i, stride)) &>> 1)) & 0xFF
            storePixel(a, out + i, stride)
            i += stride
        }
    }

    /// Sub for 3- and 4-byte pixels: one vector add per pixel instead of a byte-by-byte chain.
    private static func subPixels(_ f: UnsafePointer<UInt8>, _ out: UnsafeMutablePointer<UInt8>, _ count: Int, _ stride: Int) {
        var a = SIMD4<UInt8>(repeating: 0)
        var i = 0
        while i + 4 <= count {
            a &+= UnsafeRawPointer(f + i).loadUnaligned(as: SIMD4<UInt8>.self)
            UnsafeMutableRawPointer(out + i).storeBytes(of: a, as: SIMD4<UInt8>.self)
            i += stride
        }
        while i + stride <= count {
            for byte in 0..<stride {
                a[byte] &+= f[i + byte]
                out[i + byte] = a[byte]
            }
            i += stride
        }
    }

    /// |d| per lane (|d| ≤ 510: no overflow in 16 bits). Lowers to a max of d and -d.
    @inline(__always)
    private static func magnitude(_ d: SIMD4<Int16>) -> SIMD4<Int16> {
        d.replacing(with: 0 &- d, where: d .< 0)
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
