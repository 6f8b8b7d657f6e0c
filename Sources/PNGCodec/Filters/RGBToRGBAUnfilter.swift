/// Reverses the row filters of PNG 9.2 for 8-bit RGB rows and writes RGBA pixels (alpha 255):
/// the unfiltering and the expansion to an `rgba8` canvas in one pass, for RGB images asked for
/// as `rgba8` (what Wuffs gives and browsers draw).
///
/// `prior` is the RGBA row above in the canvas (or zeros for the first row): its R, G, B are
/// the reconstructed samples the filters need, 4 bytes apart instead of 3, and its alpha byte
/// is never used. `filtered` holds `3 × columns` bytes; every pixel but the last is read as 4
/// bytes (the 4th, the next pixel's red, lands in lane 3, whose result is replaced by 255).
/// Output pixels are 4 bytes. Lanes: one pixel per `SIMD4<Int16>`, as in ``RowUnfilter``'s
/// pixel kernels, whose Paeth predictor it shares; ``RowUnfilter`` followed by the RGB → RGBA
/// conversion is its twin (the tests hold them to the same pixels).
enum RGBToRGBAUnfilter {
    /// Reconstructs `columns` pixels of a row filtered with `type` into `output`.
    static func apply(_ type: FilterType, filtered: UnsafePointer<UInt8>, prior: UnsafePointer<UInt8>,
                      output: UnsafeMutablePointer<UInt8>, columns: Int) {
        // One specialised loop per filter (a generic over the step, not closures: those stayed calls).
        switch type {
        case .none: RowConverter.rgb8ToRGBA8(filtered, columns, output)
        case .up: var step = Up(); eachPixel(filtered, prior, output, columns, &step)
        case .sub: var step = Sub(); eachPixel(filtered, prior, output, columns, &step)
        case .average: var step = Average(); eachPixel(filtered, prior, output, columns, &step)
        case .paeth: var step = Paeth(); eachPixel(filtered, prior, output, columns, &step)
        }
    }

    /// One filter's reconstruction of a pixel from its filtered value `x` and the pixel above,
    /// carrying what it needs of the pixels to the left. Up and Sub only add, so they work on
    /// byte lanes (wrapping as PNG's modulo 256 does); Average and Paeth need 16 bits.
    private protocol Step {
        associatedtype Lanes: SIMD
        mutating func pixel(_ x: Lanes, above: Lanes) -> Lanes
    }

    private struct Up: Step {
        @inline(__always) mutating func pixel(_ x: SIMD4<UInt8>, above: SIMD4<UInt8>) -> SIMD4<UInt8> { x &+ above }
    }

    private struct Sub: Step {
        var a = SIMD4<UInt8>(repeating: 0)
        @inline(__always) mutating func pixel(_ x: SIMD4<UInt8>, above: SIMD4<UInt8>) -> SIMD4<UInt8> {
            a &+= x
            return a
        }
    }

    private struct Average: Step {
        var a = SIMD4<Int16>(repeating: 0)
        @inline(__always) mutating func pixel(_ x: SIMD4<Int16>, above: SIMD4<Int16>) -> SIMD4<Int16> {
            // (a + b) >> 1 in 16 bits: the sum may reach 510.
            a = (x &+ ((a &+ above) &>> 1)) & 0xFF
            return a
        }
    }

    private struct Paeth: Step {
        var a = SIMD4<Int16>(repeating: 0), c = SIMD4<Int16>(repeating: 0)
        @inline(__always) mutating func pixel(_ x: SIMD4<Int16>, above: SIMD4<Int16>) -> SIMD4<Int16> {
            a = (x &+ RowUnfilter.paethPredictor(a, above, c)) & 0xFF
            c = above
            return a
        }
    }

    /// Runs a byte-lane `step` over the row and stores each result as an opaque RGBA pixel.
    @inline(__always)
    private static func eachPixel<S: Step>(_ filtered: UnsafePointer<UInt8>, _ prior: UnsafePointer<UInt8>,
                                           _ output: UnsafeMutablePointer<UInt8>, _ columns: Int, _ step: inout S)
    where S.Lanes == SIMD4<UInt8> {
        eachPixel(filtered, prior, output, columns, { $0 }, { $0 }) { x, above in step.pixel(x, above: above) }
    }

    /// Runs a 16-bit-lane `step` over the row and stores each result as an opaque RGBA pixel
    /// (lanes may exceed 255 where a filter adds; the store keeps the low byte).
    @inline(__always)
    private static func eachPixel<S: Step>(_ filtered: UnsafePointer<UInt8>, _ prior: UnsafePointer<UInt8>,
                                           _ output: UnsafeMutablePointer<UInt8>, _ columns: Int, _ step: inout S)
    where S.Lanes == SIMD4<Int16> {
        eachPixel(filtered, prior, output, columns, { SIMD4<Int16>(truncatingIfNeeded: $0) },
                  { SIMD4<UInt8>(truncatingIfNeeded: $0 & 0xFF) }) { x, above in step.pixel(x, above: above) }
    }

    /// The row loop: loads each filtered pixel and the pixel above as bytes, widens them with
    /// `widen`, reconstructs, narrows with `narrow` and stores with alpha 255.
    @inline(__always)
    private static func eachPixel<Lanes>(_ filtered: UnsafePointer<UInt8>, _ prior: UnsafePointer<UInt8>,
                                         _ output: UnsafeMutablePointer<UInt8>, _ columns: Int,
                                         _ widen: (SIMD4<UInt8>) -> Lanes, _ narrow: (Lanes) -> SIMD4<UInt8>,
                                         _ reconstruct: (Lanes, Lanes) -> Lanes) {
        guard columns > 0 else { return }
        let source = UnsafeRawPointer(filtered), above = UnsafeRawPointer(prior)
        let target = UnsafeMutableRawPointer(output)
        let opaque = SIMD4<UInt8>(0, 0, 0, 255)
        for column in 0..<(columns - 1) {
            let x = widen(source.loadUnaligned(fromByteOffset: 3 * column, as: SIMD4<UInt8>.self))
            let b = widen(above.loadUnaligned(fromByteOffset: 4 * column, as: SIMD4<UInt8>.self))
            target.storeBytes(of: narrow(reconstruct(x, b)) | opaque, toByteOffset: 4 * column, as: SIMD4<UInt8>.self)
        }
        // The last pixel: exactly its 3 bytes (the row may end there).
        let last = columns - 1
        let tail = filtered + 3 * last
        let x = widen(SIMD4<UInt8>(tail[0], tail[1], tail[2], 0))
        let b = widen(above.loadUnaligned(fromByteOffset: 4 * last, as: SIMD4<UInt8>.self))
        target.storeBytes(of: narrow(reconstruct(x, b)) | opaque, toByteOffset: 4 * last, as: SIMD4<UInt8>.self)
    }
}
