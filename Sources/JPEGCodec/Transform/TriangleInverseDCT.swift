/// ``InverseDCT/transform8x8(_:workspace:output:stride:)`` for a block whose only non-zero
/// coefficients are DC and the five lowest AC ones, natural indices 0, 1, 2, 8, 9 and 16 (zig-zag
/// 0...5, the triangle in the top-left corner). The result is identical, for every input.
///
/// Such blocks are common: a progressive preview whose AC bands have not arrived predicts exactly
/// these five coefficients (``BlockSmoothing``), and flat areas of finished images code no others.
///
/// With rows and columns 3...7 of the input zero, each 1-D pass reduces to three inputs x0, x1, x2
/// and the LL&M butterfly (jidctint.c) folds into fixed weights: output n is
/// x0·2^13 + x2·e(n) + x1·o(n) with e = (10703, 4433, −4433, −10703, −10703, −4433, 4433, 10703)
/// and o = (11363, 9633, 6437, 2260, −2260, −6437, −9633, −11363), where 10703 = 4433 + 6270 (the
/// even-part rotator), 11363 = 12299 − 7373 − 3196 + 9633, 9633, 6437 = 9633 − 3196 and
/// 2260 = 9633 − 7373 (the odd part with only y1). The butterfly's 16-bit narrowing of x1 and x2
/// is kept, and wrapping 32-bit sums give the same value in any order, so nothing changes.
/// Both passes keep rows in the lanes: the column pass yields the row-wise vectors the row pass
/// needs, and no transposes are needed.
enum TriangleInverseDCT {
    typealias Lanes = SIMD4<Int32>

    /// The even and odd weights for outputs 0...3 and 4...7.
    private static let evenTop = Lanes(10703, 4433, -4433, -10703), evenBottom = Lanes(-10703, -4433, 4433, 10703)
    private static let oddTop = Lanes(11363, 9633, 6437, 2260), oddBottom = Lanes(-2260, -6437, -9633, -11363)

    /// Transforms `coefficients` (dequantized, natural order, zero outside the triangle) into 8×8
    /// samples at `output`, rows `stride` apart.
    @inline(__always)
    static func transform(_ coefficients: UnsafePointer<Int32>, output: UnsafeMutablePointer<UInt8>, stride: Int) {
        // Column pass (values of column j in rows 0...3 and 4...7): inputs c[j], c[8 + j], c[16 + j].
        let pass1Shift = InverseDCT.constantBits - InverseDCT.pass1Bits
        let pass1Rounding = Int32(1) << (pass1Shift - 1)
        @inline(__always) func column(_ x0: Int32, _ x1: Int32, _ x2: Int32) -> (Lanes, Lanes) {
            let base = Lanes(repeating: (x0 &<< InverseDCT.constantBits) &+ pass1Rounding)
            let odd = Lanes(repeating: narrow(x1)), even = Lanes(repeating: narrow(x2))
            return ((base &+ even &* evenTop &+ odd &* oddTop) &>> pass1Shift,
                    (base &+ even &* evenBottom &+ odd &* oddBottom) &>> pass1Shift)
        }
        let column0 = column(coefficients[0], coefficients[8], coefficients[16])
        let column1 = column(coefficients[1], coefficients[9], 0)
        let column2 = column(coefficients[2], 0, 0)
        // Row pass, four rows at a time (lanes): inputs are columns 0, 1, 2 of those rows.
        let shift = InverseDCT.constantBits + InverseDCT.pass1Bits + 3
        let bias = (Int32(1) << (shift - 1)) &+ (128 << shift)
        @inline(__always) func sample(_ v: Lanes) -> Lanes {
            let shifted = v &>> shift
            return shifted.replacing(with: 0, where: shifted .< 0).replacing(with: 255, where: shifted .> 255)
        }
        @inline(__always) func rows(_ x0: Lanes, _ x1: Lanes, _ x2: Lanes, first: Int) {
            let base = (x0 &<< InverseDCT.constantBits) &+ bias
            let odd = InverseDCT.narrow(x1), even = InverseDCT.narrow(x2)
            let e0 = base &+ even &* 10703, e1 = base &+ even &* 4433, e2 = base &- even &* 4433, e3 = base &- even &* 10703
            let o0 = odd &* 11363, o1 = odd &* 9633, o2 = odd &* 6437, o3 = odd &* 2260
            // Lane k of `low` holds that row's samples 0...3 as bytes, `high` samples 4...7.
            let low = sample(e0 &+ o0) | sample(e1 &+ o1) &<< 8 | sample(e2 &+ o2) &<< 16 | sample(e3 &+ o3) &<< 24
            let high = sample(e3 &- o3) | sample(e2 &- o2) &<< 8 | sample(e1 &- o1) &<< 16 | sample(e0 &- o0) &<< 24
            for k in 0..<4 {
                let out = UnsafeMutableRawPointer(output + (first + k) * stride)
                out.storeBytes(of: UInt32(bitPattern: low[k]).littleEndian, as: UInt32.self)
                out.storeBytes(of: UInt32(bitPattern: high[k]).littleEndian, toByteOffset: 4, as: UInt32.self)
            }
        }
        rows(column0.0, column1.0, column2.0, first: 0)
        rows(column0.1, column1.1, column2.1, first: 4)
    }

    /// `v` reduced to its low 16 bits, sign-extended, as the butterfly's `narrow` does.
    @inline(__always)
    private static func narrow(_ v: Int32) -> Int32 { Int32(Int16(truncatingIfNeeded: v)) }
}
