/// ``InverseDCT/transform8x8(_:workspace:output:stride:)`` for a block whose only non-zero
/// coefficients are DC and the five lowest AC ones, natural indices 0, 1, 2, 8, 9 and 16 (zig-zag
/// 0...5, the triangle in the top-left corner). The result is identical, for every input.
///
/// Such blocks are common: a progressive preview whose AC bands have not arrived predicts exactly
/// these five coefficients (``BlockSmoothing``), and flat areas of finished images code no others.
///
/// With rows and columns 3...7 of the input zero, each 1-D pass reduces to three inputs x0, x1, x2
/// and the LL&M butterfly (jidctint.c, in ``InverseDCT``'s libjpeg-turbo SIMD arrangement) folds
/// into fixed weights: output n is x0·2^13 + x2·e(n) + x1·o(n) with
/// e = (10703, 4433, −4433, −10703, −10703, −4433, 4433, 10703) and
/// o = (11363, 9633, 6437, 2260, −2260, −6437, −9633, −11363), where 10703 = 4433 + 6270 (the
/// even-part rotator), 11363 = 12299 − 7373 − 3196 + 9633, 9633, 6437 = 9633 − 3196 and
/// 2260 = 9633 − 7373 (the odd part with only y1). The 16-bit sums the butterfly wraps (x0 ± x4,
/// x7 + x3, x5 + x1) are x0 and x1 here, already 16-bit. Both passes keep rows in the lanes: the
/// column pass yields the row-wise vectors the row pass needs, and no transposes are needed.
///
/// Like ``InverseDCT``'s vector path, it relies on every first-pass value lying in
/// −2^14...2^14 − 1 (true for valid files) and otherwise hands the block to ``InverseDCT``.
enum TriangleInverseDCT {
    typealias Lanes = SIMD4<Int32>

    /// The even and odd weights for outputs 0...3 and 4...7.
    private static let evenTop = Lanes(10703, 4433, -4433, -10703), evenBottom = Lanes(-10703, -4433, 4433, 10703)
    private static let oddTop = Lanes(11363, 9633, 6437, 2260), oddBottom = Lanes(-2260, -6437, -9633, -11363)

    /// Transforms `coefficients` (dequantized, natural order, zero outside the triangle) into 8×8
    /// samples at `output`, rows `stride` apart; `workspace` (64 values) serves the rare blocks
    /// handed on to ``InverseDCT``.
    @inline(__always)
    static func transform(_ coefficients: UnsafePointer<Int32>, workspace: UnsafeMutablePointer<Int32>,
                          output: UnsafeMutablePointer<UInt8>, stride: Int) {
        // Inputs are taken modulo 2^16, as libjpeg-turbo's 16-bit lanes hold them.
        transform(input: { Int32(Int16(truncatingIfNeeded: coefficients[$0])) }, fallback: {
            InverseDCT.transform8x8(coefficients, workspace: workspace, output: output, stride: stride)
        }, output: output, stride: stride)
    }

    /// ``transform(_:workspace:output:stride:)`` for 16-bit coefficients; `workspace` holds 128
    /// values: the rare blocks handed on are widened into its second half first.
    @inline(__always)
    static func transform(_ coefficients: UnsafePointer<Int16>, workspace: UnsafeMutablePointer<Int32>,
                          output: UnsafeMutablePointer<UInt8>, stride: Int) {
        transform(input: { Int32(coefficients[$0]) }, fallback: {
            let wide = workspace + 64
            SixteenBitLanes.widen(coefficients, into: wide)
            InverseDCT.transform8x8(UnsafePointer(wide), workspace: workspace, output: output, stride: stride)
        }, output: output, stride: stride)
    }

    /// The transform with input `input(naturalIndex)` (read at 0, 1, 2, 8, 9 and 16 only) and
    /// `fallback` run instead for blocks whose first-pass values do not fit 16 bits.
    @inline(__always)
    private static func transform(input: (Int) -> Int32, fallback: () -> Void, output: UnsafeMutablePointer<UInt8>, stride: Int) {
        // Column pass (values of column j in rows 0...3 and 4...7): inputs c[j], c[8 + j], c[16 + j].
        @inline(__always) func column(_ x0: Int32, _ x1: Int32, _ x2: Int32) -> (Lanes, Lanes) {
            let base = Lanes(repeating: x0 &<< InverseDCT.constantBits)
            let odd = Lanes(repeating: x1), even = Lanes(repeating: x2)
            return (InverseDCT.columnResult(base &+ even &* evenTop &+ odd &* oddTop),
                    InverseDCT.columnResult(base &+ even &* evenBottom &+ odd &* oddBottom))
        }
        let column0 = column(input(0), input(8), input(16))
        let column1 = column(input(1), input(9), 0)
        let column2 = column(input(2), 0, 0)
        // v lies in −2^14...2^14 − 1 exactly when v + 2^14 has no bits above bit 14.
        let offset = Lanes(repeating: 1 << 14)
        let outside = (column0.0 &+ offset) | (column0.1 &+ offset) | (column1.0 &+ offset) | (column1.1 &+ offset)
            | (column2.0 &+ offset) | (column2.1 &+ offset)
        if any(outside &>> 15 .!= 0) {
            // Corrupt data only: the full transform saturates and shortcuts as libjpeg-turbo does.
            fallback()
            return
        }
        // Row pass, four rows at a time (lanes): inputs are columns 0, 1, 2 of those rows.
        @inline(__always) func rows(_ x0: Lanes, _ x1: Lanes, _ x2: Lanes, first: Int) {
            let base = x0 &<< InverseDCT.constantBits
            let e0 = base &+ x2 &* 10703, e1 = base &+ x2 &* 4433, e2 = base &- x2 &* 4433, e3 = base &- x2 &* 10703
            let o0 = x1 &* 11363, o1 = x1 &* 9633, o2 = x1 &* 6437, o3 = x1 &* 2260
            // Lane k of `low` holds that row's samples 0...3 as bytes, `high` samples 4...7.
            let low = InverseDCT.samples(e0 &+ o0, e1 &+ o1, e2 &+ o2, e3 &+ o3)
            let high = InverseDCT.samples(e3 &- o3, e2 &- o2, e1 &- o1, e0 &- o0)
            for k in 0..<4 {
                let out = UnsafeMutableRawPointer(output + (first + k) * stride)
                out.storeBytes(of: UInt32(bitPattern: low[k]).littleEndian, as: UInt32.self)
                out.storeBytes(of: UInt32(bitPattern: high[k]).littleEndian, toByteOffset: 4, as: UInt32.self)
            }
        }
        rows(column0.0, column1.0, column2.0, first: 0)
        rows(column0.1, column1.1, column2.1, first: 4)
    }
}
