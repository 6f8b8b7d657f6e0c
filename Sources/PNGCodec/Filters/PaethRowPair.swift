/// Paeth (PNG 9.4) on two consecutive rows of 3- or 4-byte pixels at once.
///
/// A Paeth row is a chain: each pixel waits for the one to its left (`a`), about a dozen
/// vector operations from one pixel to the next, and a pixel fills only half a vector. The
/// pixel below a reconstructed one needs nothing else from the row above, so the second row
/// runs one pixel behind the first in the other half of the same vectors: step `s`
/// reconstructs pixel `s` of the first row (lanes 0–3) and pixel `s − 1` of the second
/// (lanes 4–7), whose `b` is the first row's pixel of the step before. Two chains for the price
/// of one and a shuffle. The one-row twins are ``RowUnfilter`` (`paethPixels`) and
/// ``RGBToRGBAUnfilter``; the tests hold the decoder to the spec's reconstruction either way.
enum PaethRowPair {
    /// How the rows are laid out.
    enum Layout {
        /// 4-byte pixels in and out (8-bit RGBA, 16-bit gray + alpha).
        case fourBytes
        /// 3-byte pixels in and out (8-bit RGB).
        case threeBytes
        /// 8-bit RGB rows written as RGBA pixels with alpha 255 (as ``RGBToRGBAUnfilter``):
        /// `prior` and the outputs are RGBA rows; the alpha bytes of `prior` do not matter.
        case rgbToRGBA
    }

    /// Two rows of `columns` pixels: `filtered0` over `prior` into `output0`, then `filtered1`
    /// over `output0` into `output1`.
    static func apply(_ layout: Layout, filtered0: UnsafePointer<UInt8>, filtered1: UnsafePointer<UInt8>, prior: UnsafePointer<UInt8>,
                      output0: UnsafeMutablePointer<UInt8>, output1: UnsafeMutablePointer<UInt8>, columns: Int) {
        switch layout {
        case .fourBytes: apply(filtered0, filtered1, prior, output0, output1, columns, input: 4, output: 4, opaque: false)
        case .threeBytes: apply(filtered0, filtered1, prior, output0, output1, columns, input: 3, output: 3, opaque: false)
        case .rgbToRGBA: apply(filtered0, filtered1, prior, output0, output1, columns, input: 3, output: 4, opaque: true)
        }
    }

    /// Filtered pixels are `input` bytes apart, pixels of `prior` and the outputs `output` bytes.
    /// 3-byte pixels move as 4 bytes where a 4th byte is there to read and may be overwritten
    /// (the lane it lands in is never mixed with the others); each row's last pixel moves as
    /// exactly its bytes, so nothing is read past the second row or written past either.
    @inline(__always)
    private static func apply(_ filtered0: UnsafePointer<UInt8>, _ filtered1: UnsafePointer<UInt8>, _ prior: UnsafePointer<UInt8>,
                              _ output0: UnsafeMutablePointer<UInt8>, _ output1: UnsafeMutablePointer<UInt8>, _ columns: Int,
                              input: Int, output: Int, opaque: Bool) {
        guard columns > 0 else { return }
        let alpha = SIMD4<UInt8>(0, 0, 0, opaque ? 255 : 0)
        var a = SIMD8<Int16>(repeating: 0), c = SIMD8<Int16>(repeating: 0)
        let last = columns - 1
        // The first row's first pixel; the second row's lanes see zeros and stay zero, which is
        // what its first pixel needs as a and c. (A 4-byte read of the first row's last pixel
        // reaches the second row's filter byte, never further.)
        let firstPixel = step(load(filtered0), load(prior), .zero, &a, &c)
        if last == 0 {
            storeExact(firstPixel.lowHalf, output0, output, alpha)
        } else {
            store(firstPixel.lowHalf, output0, alpha)
        }
        var column = 1
        while column < last {
            let pixels = step(load(filtered0 + input * column), load(prior + output * column),
                              load(filtered1 + input * (column - 1)), &a, &c)
            store(pixels.lowHalf, output0 + output * column, alpha)
            store(pixels.highHalf, output1 + output * (column - 1), alpha)
            column += 1
        }
        if last > 0 {
            // The first row's last pixel, exactly; the second row's pixel before its last.
            let pixels = step(load(filtered0 + input * last), load(prior + output * last),
                              load(filtered1 + input * (last - 1)), &a, &c)
            storeExact(pixels.lowHalf, output0 + output * last, output, alpha)
            store(pixels.highHalf, output1 + output * (last - 1), alpha)
        }
        // The second row's last pixel (the first row's lanes compute nothing used).
        let tail = filtered1 + input * last
        let lastPixel = input == 4 ? load(tail) : SIMD4<UInt8>(tail[0], tail[1], tail[2], 0)
        storeExact(step(.zero, .zero, lastPixel, &a, &c).highHalf, output1 + output * last, output, alpha)
    }

    /// One step on the first row's pixel (filtered, above) and the second row's (filtered); the
    /// second row's b is the first row's pixel just reconstructed (`a`'s low half).
    @inline(__always)
    private static func step(_ first: SIMD4<UInt8>, _ above: SIMD4<UInt8>, _ second: SIMD4<UInt8>,
                             _ a: inout SIMD8<Int16>, _ c: inout SIMD8<Int16>) -> SIMD8<UInt8> {
        let b = SIMD8(lowHalf: SIMD4<Int16>(truncatingIfNeeded: above), highHalf: a.lowHalf)
        let x = SIMD8<Int16>(truncatingIfNeeded: SIMD8(lowHalf: first, highHalf: second))
        a = reconstruct(x, a: a, b: b, c: c)
        c = b
        return SIMD8<UInt8>(truncatingIfNeeded: a)
    }

    @inline(__always)
    private static func load(_ p: UnsafePointer<UInt8>) -> SIMD4<UInt8> {
        UnsafeRawPointer(p).loadUnaligned(as: SIMD4<UInt8>.self)
    }

    @inline(__always)
    private static func store(_ pixel: SIMD4<UInt8>, _ p: UnsafeMutablePointer<UInt8>, _ alpha: SIMD4<UInt8>) {
        UnsafeMutableRawPointer(p).storeBytes(of: pixel | alpha, as: SIMD4<UInt8>.self)
    }

    /// Stores exactly the pixel's `size` bytes.
    @inline(__always)
    private static func storeExact(_ pixel: SIMD4<UInt8>, _ p: UnsafeMutablePointer<UInt8>, _ size: Int, _ alpha: SIMD4<UInt8>) {
        if size == 4 {
            store(pixel, p, alpha)
        } else {
            p[0] = pixel[0]; p[1] = pixel[1]; p[2] = pixel[2]
        }
    }

    /// `x` plus the Paeth predictor of every lane, modulo 256 (as ``RowUnfilter/paethPredictor(_:_:_:)``).
    @inline(__always)
    private static func reconstruct(_ x: SIMD8<Int16>, a: SIMD8<Int16>, b: SIMD8<Int16>, c: SIMD8<Int16>) -> SIMD8<Int16> {
        let towardsB = b &- c, towardsA = a &- c
        let pa = magnitude(towardsB), pb = magnitude(towardsA), pc = magnitude(towardsB &+ towardsA)
        let notA = (pa .> pb) .| (pa .> pc)
        let bOrC = b.replacing(with: c, where: pb .> pc)
        return (x &+ a.replacing(with: bOrC, where: notA)) & 0xFF
    }

    /// |d| per lane (|d| ≤ 510). The sign as a shift, not `d .< 0`: for 8 lanes that comparison
    /// with a scalar compiled to a loop over the lanes here.
    @inline(__always)
    private static func magnitude(_ d: SIMD8<Int16>) -> SIMD8<Int16> {
        let sign = d &>> 15
        return (d ^ sign) &- sign
    }
}
