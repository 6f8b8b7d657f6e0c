// The even/odd split below reads bytes as little-endian 16-bit words.
#if _endian(big)
#error("PairedYCbCrConverter.pairs(_:) reads bytes as little-endian 16-bit words")
#endif

/// YCbCr → RGB for 16 pixels at a time on eight 16-bit lanes, pixels taken as even/odd pairs:
/// lane i of the "even" vectors is pixel 2i, of the "odd" ones pixel 2i + 1.
///
/// Why pairs: 16 luma bytes loaded as eight little-endian 16-bit words are split into even and
/// odd pixels by one mask and one shift (no byte unpacking), a 2:1 triangle upsampler produces
/// its outputs as even/odd pairs anyway, and the three-byte RGB layout is built from whole 16-bit
/// pairs (R₂ᵢG₂ᵢ, B₂ᵢR₂ᵢ₊₁, G₂ᵢ₊₁B₂ᵢ₊₁) with word and dword interleaves, which SSE2 and NEON
/// do in single instructions (byte-granular shuffles would be scalarised on SSE2).
///
/// The arithmetic is ``RowColorConverter/yCbCrToRGB(_:_:_:into:width:)``'s (libjpeg's tables
/// written out): R and B use `mulhi(2v, c)`, SSE2's `pmulhw`; G sums its two products by
/// `pmaddwd` or from their 16-bit halves (see ``GreenSum``). That converter, the careful twin,
/// takes the last pixels of each row.
///
/// The even/odd split reads 16-bit words little-endian, as every supported CPU (x86-64, arm64) is.
enum PairedYCbCrConverter {
    typealias Row = SixteenBitLanes.Row

    /// Sixteen pixels' worth of one component as even and odd lanes.
    struct Pairs {
        var even: Row
        var odd: Row
    }

    /// Bytes `p[0..<16]` as even/odd lanes (little-endian words: the low byte is the even pixel).
    @inline(__always)
    static func pairs(_ p: UnsafePointer<UInt8>) -> Pairs {
        let words = UnsafeRawPointer(p).loadUnaligned(as: SIMD8<UInt16>.self)
        return Pairs(even: unsafeBitCast(words & 0x00FF, to: Row.self), odd: unsafeBitCast(words &>> 8, to: Row.self))
    }

    /// Bytes `p[0..<16]` less 128 as even/odd lanes: v − 128 is the byte v ^ 0x80 sign-extended,
    /// so the last operation is an arithmetic shift (see ``rgb(luma:blue:cr:green:)``).
    @inline(__always)
    static func centredPairs(_ p: UnsafePointer<UInt8>) -> Pairs {
        let words = unsafeBitCast(UnsafeRawPointer(p).loadUnaligned(as: SIMD8<UInt16>.self) ^ 0x8080, to: Row.self)
        return Pairs(even: (words &<< 8) &>> 8, odd: words &>> 8)
    }

    /// (a · c) >> 16 per lane, the high half of the 32-bit product (`pmulhw`).
    @inline(__always)
    static func multiplyHigh(_ a: Row, _ c: Row) -> Row {
        @inline(__always) func lane(_ i: Int) -> Int16 { Int16(truncatingIfNeeded: (Int32(a[i]) &* Int32(c[i])) &>> 16) }
        return Row(lane(0), lane(1), lane(2), lane(3), lane(4), lane(5), lane(6), lane(7))
    }

    /// Bytes `v[0], v[8], v[1], v[9], …`: the halves of `v` interleaved, as eight 16-bit words
    /// whose low byte comes from the first half (`punpckhqdq`, `punpcklbw`).
    @inline(__always)
    static func halvesInterleaved(_ v: SIMD16<UInt8>) -> Row {
        // Moving the high half down first keeps both steps two-input byte shuffles that LLVM
        // lowers to single SSE2 instructions; indexing the high lanes directly is scalarised.
        let high = SIMD16<UInt8>(v[8], v[9], v[10], v[11], v[12], v[13], v[14], v[15], 0, 0, 0, 0, 0, 0, 0, 0)
        let pairs = SIMD16<UInt8>(v[0], high[0], v[1], high[1], v[2], high[2], v[3], high[3],
                                  v[4], high[4], v[5], high[5], v[6], high[6], v[7], high[7])
        return unsafeBitCast(pairs, to: Row.self)
    }

    /// (a · c) mod 2^16 per lane, as unsigned 16-bit values (`pmullw`).
    @inline(__always)
    static func multiplyLow(_ a: Row, _ c: Row) -> SIMD8<UInt16> {
        unsafeBitCast(a &* c, to: SIMD8<UInt16>.self)
    }

    /// How ``rgb(luma:blue:cr:green:)`` sums G's two products; both give the tables' values.
    enum GreenSum {
        /// One `pmaddwd` of interleaved Cb' and Cr' per four pixels, the 32-bit sum rounded and
        /// narrowed by a shift and a pack. It only pays while LLVM cannot move the interleave up
        /// into the loads (it moves a shuffle of two lane-wise results of the same operation above
        /// the operation, and then has to undo it for R and B, about 20 instructions more per
        /// call; on rows read as bytes it even scalarises): Cr' is therefore made by a subtraction
        /// in ``rgb(luma:blue:cr:green:)`` and callers make Cb' by another last operation (the
        /// upsampler's arithmetic shift).
        case multiplyAdd
        /// Summed from the products' 16-bit halves, every step lane-wise (no interleave to move):
        /// (x·c1 + y·c2 + 2^15) >> 16 = hi(x·c1) + hi(y·c2) + carry, the carry being
        /// (lo(x·c1) + lo(y·c2) + 2^15) >> 16 (0, 1 or 2).
        case halves
    }

    /// R, G and B of eight pixels from luma, centred Cb (Cb' = Cb − 128) and Cr as it is (0...255),
    /// not yet clamped; `green` is a constant at each call.
    @inline(__always)
    static func rgb(luma: Row, blue: Row, cr: Row, green method: GreenSum) -> (r: Row, g: Row, b: Row) {
        let red = cr &- 128
        let one = Row(repeating: 1)
        let r = luma &+ red &+ ((multiplyHigh(red &<< 1, Row(repeating: 26345)) &+ one) &>> 1)
        let b = luma &+ (blue &<< 1) &+ ((multiplyHigh(blue &<< 1, Row(repeating: -14942)) &+ one) &>> 1)
        let green: Row
        switch method {
        case .multiplyAdd:
            let products = SixteenBitLanes.products(blue, red, -22554, 18734)
            let half = SixteenBitLanes.Half(repeating: 1 << 15)
            green = SixteenBitLanes.narrowed((products.low &+ half) &>> 16, (products.high &+ half) &>> 16)
        case .halves:
            let blueFactor = Row(repeating: -22554), redFactor = Row(repeating: 18734)
            let blueLow = multiplyLow(blue, blueFactor), redLow = multiplyLow(red, redFactor)
            let sum = blueLow &+ redLow
            // Carry out of the 16-bit sum (the top bit of (x & y) | ((x | y) & ~sum)), then of + 2^15.
            let carry = ((blueLow & redLow) | ((blueLow | redLow) & ~sum)) &>> 15
            let carries = unsafeBitCast(carry &+ (sum &>> 15), to: Row.self)
            green = multiplyHigh(blue, blueFactor) &+ multiplyHigh(red, redFactor) &+ carries
        }
        // −0.71414 = 18734 / 2^16 − 1: the −Cr'.
        let g = luma &- red &+ green
        return (r, g, b)
    }

    /// Sixteen pixels, given as even/odd luma and Cr (0...255) and centred Cb (Cb − 128) in
    /// 16-bit lanes, converted and stored as 48 bytes of RGB at `output`. With `overrun`,
    /// the two bytes after them are overwritten too (cheaper stores; the caller writes them later).
    @inline(__always)
    static func store(luma: Pairs, blue: Pairs, cr: Pairs, green: GreenSum, into output: UnsafeMutablePointer<UInt8>,
                      overrun: Bool) {
        let even = rgb(luma: luma.even, blue: blue.even, cr: cr.even, green: green)
        let odd = rgb(luma: luma.odd, blue: blue.odd, cr: cr.odd, green: green)
        // Clamped to bytes by `packuswb`; pair i's six bytes are then three words:
        // a = R₂ᵢG₂ᵢ, b = B₂ᵢR₂ᵢ₊₁, c = G₂ᵢ₊₁B₂ᵢ₊₁.
        let a = halvesInterleaved(SixteenBitLanes.clampedBytes(even.r, even.g))
        let b = halvesInterleaved(SixteenBitLanes.clampedBytes(even.b, odd.r))
        let c = halvesInterleaved(SixteenBitLanes.clampedBytes(odd.g, odd.b))
        if overrun {
            storeOverlappingTriples(a, b, c, into: output)
        } else {
            storeTriples(a, b, c, into: output)
        }
    }

    /// Dwords aᵢbᵢ (`a`'s word low) for i = 0...3 and 4...7 (`punpcklwd`, `punpckhwd`).
    @inline(__always)
    static func dwordPairs(_ a: Row, _ b: Row) -> (SIMD4<UInt32>, SIMD4<UInt32>) {
        (unsafeBitCast(SixteenBitLanes.interleavedLow(a, b), to: SIMD4<UInt32>.self),
         unsafeBitCast(SixteenBitLanes.interleavedHigh(a, b), to: SIMD4<UInt32>.self))
    }

    /// Words a₀b₀c₀a₁b₁c₁…a₇b₇c₇ (48 bytes) at `output`.
    @inline(__always)
    static func storeTriples(_ a: Row, _ b: Row, _ c: Row, into output: UnsafeMutablePointer<UInt8>) {
        typealias Quad = SIMD4<UInt32>
        // Dwords of the output: (a₀b₀)(c₀a₁)(b₁c₁) (a₂b₂)(c₂a₃)(b₃c₃) …: x = aᵢbᵢ, y = cᵢaᵢ₊₁, z = bᵢ₊₁cᵢ₊₁ for even i.
        let (ab0, ab1) = dwordPairs(a, b), (bc0, bc1) = dwordPairs(b, c)
        let x = Quad(ab0[0], ab0[2], ab1[0], ab1[2])
        let z = Quad(bc0[1], bc0[3], bc1[1], bc1[3])
        // cᵢ is the high word of bc's even dwords, aᵢ₊₁ the low word of ab's odd ones.
        let y = (Quad(bc0[0], bc0[2], bc1[0], bc1[2]) &>> 16) | (Quad(ab0[1], ab0[3], ab1[1], ab1[3]) &<< 16)
        let raw = UnsafeMutableRawPointer(output)
        raw.storeBytes(of: Quad(x[0], y[0], z[0], x[1]), as: Quad.self)
        raw.storeBytes(of: Quad(y[1], z[1], x[2], y[2]), toByteOffset: 16, as: Quad.self)
        raw.storeBytes(of: Quad(z[2], x[3], y[3], z[3]), toByteOffset: 32, as: Quad.self)
    }

    /// ``storeTriples(_:_:_:into:)`` as eight 8-byte stores 6 bytes apart, each aᵢbᵢcᵢ and two
    /// spare bytes that the next store (after the last one, the caller) overwrites: fewer
    /// shuffles than three whole-vector stores, but `output[48]` and `output[49]` are written.
    @inline(__always)
    static func storeOverlappingTriples(_ a: Row, _ b: Row, _ c: Row, into output: UnsafeMutablePointer<UInt8>) {
        typealias Quad = SIMD4<UInt32>
        // cᵢ in the low word of c's dword i (the high word is the spare one).
        let (ab0, ab1) = dwordPairs(a, b), (c0, c1) = dwordPairs(c, c)
        let raw = UnsafeMutableRawPointer(output)
        @inline(__always) func put(_ ab: Quad, _ c: Quad, _ i: Int, at offset: Int) {
            let pairs = unsafeBitCast(Quad(ab[i], c[i], ab[i + 1], c[i + 1]), to: SIMD2<UInt64>.self)
            raw.storeBytes(of: pairs[0], toByteOffset: offset, as: UInt64.self)
            raw.storeBytes(of: pairs[1], toByteOffset: offset + 6, as: UInt64.self)
        }
        put(ab0, c0, 0, at: 0); put(ab0, c0, 2, at: 12); put(ab1, c1, 0, at: 24); put(ab1, c1, 2, at: 36)
    }

    /// `width` pixels from full-size Y, Cb and Cr rows: 16 at a time, the rest by the scalar twin.
    static func convert(_ y: UnsafePointer<UInt8>, _ cb: UnsafePointer<UInt8>, _ cr: UnsafePointer<UInt8>,
                        into output: UnsafeMutablePointer<UInt8>, width: Int) {
        @inline(__always) func sixteen(at x: Int, overrun: Bool) {
            store(luma: pairs(y + x), blue: centredPairs(cb + x), cr: pairs(cr + x), green: .halves, into: output + 3 * x,
                  overrun: overrun)
        }
        var x = 0
        // While a pixel follows the sixteen, its store repairs the overrun.
        while x + 17 <= width {
            sixteen(at: x, overrun: true)
            x += 16
        }
        if x + 16 <= width {
            sixteen(at: x, overrun: false)
            x += 16
        }
        if x < width {
            RowColorConverter.yCbCrToRGB(y + x, cb + x, cr + x, into: output + 3 * x, width: width - x)
        }
    }

    /// `width` pixels from a full-size Y row and Cb, Cr rows stretched 2:1 across by `filter`
    /// on the way (``PairedChromaUpsampler``: `cbValues`, `crValues` are their column values).
    /// `tail` (32 bytes) holds the last pixels' chroma for the scalar twin.
    @inline(__always)
    static func convert(_ y: UnsafePointer<UInt8>, cbValues: UnsafePointer<UInt16>, crValues: UnsafePointer<UInt16>,
                        filter: PairedChromaUpsampler.Filter, tail: UnsafeMutablePointer<UInt8>,
                        into output: UnsafeMutablePointer<UInt8>, width: Int) {
        @inline(__always) func sixteen(at x: Int, overrun: Bool) {
            store(luma: pairs(y + x), blue: PairedChromaUpsampler.centredPairs(cbValues, at: x >> 1, filter),
                  cr: PairedChromaUpsampler.pairs(crValues, at: x >> 1, filter), green: .multiplyAdd, into: output + 3 * x, overrun: overrun)
        }
        var x = 0
        // While a pixel follows the sixteen, its store repairs the overrun.
        while x + 17 <= width {
            sixteen(at: x, overrun: true)
            x += 16
        }
        if x + 16 <= width {
            sixteen(at: x, overrun: false)
            x += 16
        }
        guard x < width else { return }
        for p in x..<width {
            tail[p - x] = PairedChromaUpsampler.sample(cbValues, pixel: p, filter)
            tail[16 + p - x] = PairedChromaUpsampler.sample(crValues, pixel: p, filter)
        }
        RowColorConverter.yCbCrToRGB(y + x, tail, tail + 16, into: output + 3 * x, width: width - x)
    }

    /// ``convert(_:cbValues:crValues:filter:tail:into:width:)`` for 4:2:0 (h2v2 fancy chroma).
    static func convertH2V2(_ y: UnsafePointer<UInt8>, cbValues: UnsafePointer<UInt16>, crValues: UnsafePointer<UInt16>,
                            tail: UnsafeMutablePointer<UInt8>, into output: UnsafeMutablePointer<UInt8>, width: Int) {
        convert(y, cbValues: cbValues, crValues: crValues, filter: .h2v2, tail: tail, into: output, width: width)
    }

    /// ``convert(_:cbValues:crValues:filter:tail:into:width:)`` for 4:2:2 (h2v1 fancy chroma).
    static func convertH2V1(_ y: UnsafePointer<UInt8>, cbValues: UnsafePointer<UInt16>, crValues: UnsafePointer<UInt16>,
                            tail: UnsafeMutablePointer<UInt8>, into output: UnsafeMutablePointer<UInt8>, width: Int) {
        convert(y, cbValues: cbValues, crValues: crValues, filter: .h2v1, tail: tail, into: output, width: width)
    }
}
