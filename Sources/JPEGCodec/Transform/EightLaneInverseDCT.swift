/// ``InverseDCT``'s accurate integer IDCT on a whole row of eight 16-bit values per vector, the
/// arrangement of libjpeg-turbo's jidctint-sse2.asm: the column pass works on the eight input
/// rows as they lie (lane = column), an 8×8 transpose of 16-bit values gives the row pass its
/// inputs (lane = row), and a second transpose turns its output columns back into sample rows.
///
/// Each product pair of the butterfly (x2·c + x6·c', …) is one multiply-add of interleaved 16-bit
/// values into 32 bits: written as `((w << 16) >> 16) · c + (w >> 16) · c'` on the interleaved
/// pairs `w`, it compiles to SSE2's `pmaddwd` (and to the same multiply-adds on arm64), where the
/// four-lane 32-bit arrangement this replaced needed a multiply, a shift pair and a transpose of
/// 4×4 tiles per half (callgrind: about 1000 instructions per block against about 500 here).
///
/// The arithmetic is ``InverseDCT/transform8x8Scalar(_:workspace:output:stride:)``'s: inputs
/// taken modulo 2^16, x0 ± x4, x7 + x3 and x5 + x1 wrapped to 16 bits, 32-bit products and sums.
/// Like the four-lane version it never saturates between the passes: a block with a first-pass
/// value outside −2^14...2^14 − 1 (only corrupt data makes one) is redone by the scalar twin,
/// which also covers libjpeg-turbo's shortcut for blocks whose rows 1...7 are zero.
enum EightLaneInverseDCT {
    /// Eight 16-bit values: one row (column pass) or one column (row pass) of a block.
    typealias Row = SixteenBitLanes.Row
    typealias Half = SixteenBitLanes.Half
    typealias Wide = SixteenBitLanes.Wide

    /// Transforms one block (dequantized, natural order) into 8×8 samples at `output`, rows
    /// `stride` apart, exactly as ``InverseDCT/transform8x8Scalar(_:workspace:output:stride:)``
    /// does; `workspace` (64 values) serves the rare blocks handed to it.
    ///
    /// With `topLeftOnly` (a constant at each call, so its branches fold) rows and columns 4...7
    /// of the input are known to be zero (``BlockShape/topLeft4x4``): the zero rows are not
    /// loaded and the row pass's zero inputs fold away; the result is the same.
    @inline(__always)
    static func transform(_ coefficients: UnsafePointer<Int32>, workspace: UnsafeMutablePointer<Int32>,
                          output: UnsafeMutablePointer<UInt8>, stride: Int, topLeftOnly: Bool = false) {
        let input = UnsafeRawPointer(coefficients)
        let rows = topLeftOnly ? 4 : 8
        transform(loadingRow: { r in
            // A top-left block's columns 4...7 are zero: not loaded, and known to be zero.
            SixteenBitLanes.narrowed(input.loadUnaligned(fromByteOffset: r * 32, as: Half.self),
                                     topLeftOnly ? Half() : input.loadUnaligned(fromByteOffset: r * 32 + 16, as: Half.self))
        }, scalar: {
            InverseDCT.transform8x8Scalar(coefficients, workspace: workspace, output: output, stride: stride)
        }, output: output, stride: stride, rows: rows, columns: rows)
    }

    /// ``transform(_:workspace:output:stride:topLeftOnly:)`` for a block of 16-bit values (sequential
    /// storage): each input row is one 16-byte load, where 32-bit values take two loads and a
    /// narrowing. `workspace` holds 128 values here: the rare blocks handed to the scalar twin
    /// are widened into its second half first.
    ///
    /// `rows` and `columns` (4 or 8, constants at each call) say that input rows or columns 4...7
    /// are zero (``BlockShape``): zero rows are not loaded, and with 4 columns each row is an 8-byte
    /// load, which tells the compiler that lanes 4...7 are zero, so the column pass's upper halves
    /// and the row pass's inputs 4...7 fold away. The result is the same.
    @inline(__always)
    static func transform(_ coefficients: UnsafePointer<Int16>, workspace: UnsafeMutablePointer<Int32>,
                          output: UnsafeMutablePointer<UInt8>, stride: Int, rows: Int = 8, columns: Int = 8) {
        let input = UnsafeRawPointer(coefficients)
        transform(loadingRow: { r in
            guard columns == 8 else {
                return Row(lowHalf: input.loadUnaligned(fromByteOffset: r * 16, as: SIMD4<Int16>.self), highHalf: .zero)
            }
            return input.loadUnaligned(fromByteOffset: r * 16, as: Row.self)
        }, scalar: {
            let wide = workspace + 64
            SixteenBitLanes.widen(coefficients, into: wide)
            InverseDCT.transform8x8Scalar(UnsafePointer(wide), workspace: workspace, output: output, stride: stride)
        }, output: output, stride: stride, rows: rows, columns: columns)
    }

    /// ``transform(_:workspace:output:stride:rows:columns:)`` for a ``BlockShape/full`` block, out of
    /// line: one function per shape keeps the compiler from merging the calls into one with run-time
    /// `rows` and `columns` (it does once the caller is too big to inline all four into).
    @inline(never)
    static func transformFull(_ coefficients: UnsafePointer<Int16>, workspace: UnsafeMutablePointer<Int32>,
                              output: UnsafeMutablePointer<UInt8>, stride: Int) {
        transform(coefficients, workspace: workspace, output: output, stride: stride)
    }

    /// ``transform(_:workspace:output:stride:rows:columns:)`` for a ``BlockShape/topLeft4x4`` block, out of line.
    @inline(never)
    static func transformTopLeft(_ coefficients: UnsafePointer<Int16>, workspace: UnsafeMutablePointer<Int32>,
                                 output: UnsafeMutablePointer<UInt8>, stride: Int) {
        transform(coefficients, workspace: workspace, output: output, stride: stride, rows: 4, columns: 4)
    }

    /// ``transform(_:workspace:output:stride:rows:columns:)`` for a ``BlockShape/leftColumns`` block, out of line.
    @inline(never)
    static func transformLeftColumns(_ coefficients: UnsafePointer<Int16>, workspace: UnsafeMutablePointer<Int32>,
                                     output: UnsafeMutablePointer<UInt8>, stride: Int) {
        transform(coefficients, workspace: workspace, output: output, stride: stride, columns: 4)
    }

    /// ``transform(_:workspace:output:stride:rows:columns:)`` for a ``BlockShape/topRows`` block, out of line.
    @inline(never)
    static func transformTopRows(_ coefficients: UnsafePointer<Int16>, workspace: UnsafeMutablePointer<Int32>,
                                 output: UnsafeMutablePointer<UInt8>, stride: Int) {
        transform(coefficients, workspace: workspace, output: output, stride: stride, rows: 4)
    }

    /// The transform, with input row r as `loadingRow(r)` (not called for r ≥ `rows`; lanes
    /// ≥ `columns` zero) and `scalar` run instead for blocks whose first-pass values do not fit.
    @inline(__always)
    private static func transform(loadingRow: (Int) -> Row, scalar: () -> Void,
                                  output: UnsafeMutablePointer<UInt8>, stride: Int, rows: Int, columns: Int) {
        @inline(__always) func row(_ r: Int) -> Row {
            if r >= rows { return Row() }
            return loadingRow(r)
        }
        // Column pass: outputs keep `pass1Bits` extra bits, descaled by 13 − 2 = 11 bits.
        let columnOut = butterfly(row(0), row(1), row(2), row(3), row(4), row(5), row(6), row(7))
        let pass1Shift = InverseDCT.constantBits - InverseDCT.pass1Bits
        let pass1Bias = Half(repeating: 1 &<< (pass1Shift - 1))
        // x = v + bias descales (x >> 11) into −2^14...2^14 − 1 exactly when x lies in −2^25...2^25 − 1,
        // that is when x + 2^25 has no bits above bit 25 (a sum that wraps sets the sign bit): one
        // OR checks all. For such x, x << 5 does not overflow and its high 16 bits are x >> 11; an
        // arithmetic shift by 16 tells the compiler the result fits, so narrowing is a bare pack
        // (where x >> 11 needed a shift pair before it).
        let offset = Half(repeating: 1 << 25)
        let up = 16 - pass1Shift
        var outside = Half()
        @inline(__always) func descaled(_ v: Wide) -> Row {
            let low = v.low &+ pass1Bias, high = v.high &+ pass1Bias
            outside |= (low &+ offset) | (high &+ offset)
            return SixteenBitLanes.narrowed((low &<< up) &>> 16, (high &<< up) &>> 16)
        }
        let w0 = descaled(columnOut.0), w1 = descaled(columnOut.1), w2 = descaled(columnOut.2), w3 = descaled(columnOut.3)
        let w4 = descaled(columnOut.4), w5 = descaled(columnOut.5), w6 = descaled(columnOut.6), w7 = descaled(columnOut.7)
        guard !any(outside &>> 26 .!= 0) else {
            scalar()
            return
        }
        // Row pass on the transposed block: lane k of input j is row k's value j; output j is
        // sample column j. Descaled by 13 + 2 + 3 = 18 bits with the +128 folded into the bias
        // (no overflow: |v| < 2^14 · 64570 < 2^30); the result fits in 16 bits.
        let t = transposed((w0, w1, w2, w3, w4, w5, w6, w7))
        // Columns 4...7 of the input, when zero, stay zero through the column pass.
        let samplesOut = columns == 4 ? butterfly(t.0, t.1, t.2, t.3, Row(), Row(), Row(), Row())
                                     : butterfly(t.0, t.1, t.2, t.3, t.4, t.5, t.6, t.7)
        let shift = InverseDCT.constantBits + InverseDCT.pass1Bits + 3
        let bias = Half(repeating: (1 &<< (shift - 1)) &+ (128 &<< shift))
        @inline(__always) func sampleColumn(_ v: Wide) -> Row {
            SixteenBitLanes.narrowed((v.low &+ bias) &>> shift, (v.high &+ bias) &>> shift)
        }
        let s = transposed((sampleColumn(samplesOut.0), sampleColumn(samplesOut.1), sampleColumn(samplesOut.2),
                            sampleColumn(samplesOut.3), sampleColumn(samplesOut.4), sampleColumn(samplesOut.5),
                            sampleColumn(samplesOut.6), sampleColumn(samplesOut.7)))
        @inline(__always) func store(_ a: Row, _ b: Row, rows r: Int) {
            let bytes = unsafeBitCast(SixteenBitLanes.clampedBytes(a, b), to: SIMD2<UInt64>.self)
            UnsafeMutableRawPointer(output + r * stride).storeBytes(of: bytes[0], as: UInt64.self)
            UnsafeMutableRawPointer(output + (r + 1) * stride).storeBytes(of: bytes[1], as: UInt64.self)
        }
        store(s.0, s.1, rows: 0)
        store(s.2, s.3, rows: 2)
        store(s.4, s.5, rows: 4)
        store(s.6, s.7, rows: 6)
    }

    /// `v · 2^13` in 32 bits: `v` moved into the high half of each lane and shifted down by 3.
    @inline(__always)
    static func scaledUp(_ v: Row) -> Wide {
        let zero = Row()
        let shift = 16 - InverseDCT.constantBits
        return (unsafeBitCast(SixteenBitLanes.interleavedLow(zero, v), to: Half.self) &>> shift,
                unsafeBitCast(SixteenBitLanes.interleavedHigh(zero, v), to: Half.self) &>> shift)
    }

    /// ``InverseDCT``'s butterfly (LL&M, jidctint.c figure 8) on eight lanes of 16-bit inputs,
    /// outputs in 32 bits scaled by 2^13.
    @inline(__always)
    static func butterfly(_ x0: Row, _ x1: Row, _ x2: Row, _ x3: Row, _ x4: Row, _ x5: Row, _ x6: Row, _ x7: Row)
        -> (Wide, Wide, Wide, Wide, Wide, Wide, Wide, Wide) {
        typealias C = InverseDCT
        // Even part: z1 = (x2 + x6) · c6√2 distributed over x2 and x6.
        let tmp3 = SixteenBitLanes.products(x2, x6, C.fix0_541196100 + C.fix0_765366865, C.fix0_541196100)
        let tmp2 = SixteenBitLanes.products(x2, x6, C.fix0_541196100, C.fix0_541196100 - C.fix1_847759065)
        let tmp0 = scaledUp(x0 &+ x4), tmp1 = scaledUp(x0 &- x4)
        let tmp10 = SixteenBitLanes.sum(tmp0, tmp3), tmp13 = SixteenBitLanes.difference(tmp0, tmp3)
        let tmp11 = SixteenBitLanes.sum(tmp1, tmp2), tmp12 = SixteenBitLanes.difference(tmp1, tmp2)
        // Odd part: z5 = (z3 + z4) · 1.175875602 distributed over z3 and z4 (16-bit sums).
        let z3 = x7 &+ x3, z4 = x5 &+ x1
        let m3 = SixteenBitLanes.products(z3, z4, C.fix1_175875602 - C.fix1_961570560, C.fix1_175875602)
        let m4 = SixteenBitLanes.products(z3, z4, C.fix1_175875602, C.fix1_175875602 - C.fix0_390180644)
        // z1 = x7 + x1 and z2 = x5 + x3 distributed likewise.
        let t0 = SixteenBitLanes.sum(SixteenBitLanes.products(x7, x1, C.fix0_298631336 - C.fix0_899976223, -C.fix0_899976223), m3)
        let t1 = SixteenBitLanes.sum(SixteenBitLanes.products(x5, x3, C.fix2_053119869 - C.fix2_562915447, -C.fix2_562915447), m4)
        let t2 = SixteenBitLanes.sum(SixteenBitLanes.products(x5, x3, -C.fix2_562915447, C.fix3_072711026 - C.fix2_562915447), m3)
        let t3 = SixteenBitLanes.sum(SixteenBitLanes.products(x7, x1, -C.fix0_899976223, C.fix1_501321110 - C.fix0_899976223), m4)
        return (SixteenBitLanes.sum(tmp10, t3), SixteenBitLanes.sum(tmp11, t2), SixteenBitLanes.sum(tmp12, t1), SixteenBitLanes.sum(tmp13, t0),
                SixteenBitLanes.difference(tmp13, t0), SixteenBitLanes.difference(tmp12, t1), SixteenBitLanes.difference(tmp11, t2), SixteenBitLanes.difference(tmp10, t3))
    }

    /// The 8×8 transpose of eight rows (lane j of row i becomes lane i of row j): three rounds of
    /// interleaves of 16-, 32- and 64-bit units, as jidctint-sse2.asm does it.
    @inline(__always)
    static func transposed(_ r: (Row, Row, Row, Row, Row, Row, Row, Row)) -> (Row, Row, Row, Row, Row, Row, Row, Row) {
        typealias D = SIMD4<Int32>
        typealias Q = SIMD2<Int64>
        @inline(__always) func low32(_ a: Row, _ b: Row) -> Row {
            let x = unsafeBitCast(a, to: D.self), y = unsafeBitCast(b, to: D.self)
            return unsafeBitCast(D(x[0], y[0], x[1], y[1]), to: Row.self)
        }
        @inline(__always) func high32(_ a: Row, _ b: Row) -> Row {
            let x = unsafeBitCast(a, to: D.self), y = unsafeBitCast(b, to: D.self)
            return unsafeBitCast(D(x[2], y[2], x[3], y[3]), to: Row.self)
        }
        @inline(__always) func low64(_ a: Row, _ b: Row) -> Row {
            unsafeBitCast(Q(unsafeBitCast(a, to: Q.self)[0], unsafeBitCast(b, to: Q.self)[0]), to: Row.self)
        }
        @inline(__always) func high64(_ a: Row, _ b: Row) -> Row {
            unsafeBitCast(Q(unsafeBitCast(a, to: Q.self)[1], unsafeBitCast(b, to: Q.self)[1]), to: Row.self)
        }
        // a: pairs of rows interleaved; b: quads (columns 2k, 2k + 1 of rows 0...3 or 4...7).
        let a0 = SixteenBitLanes.interleavedLow(r.0, r.1), a1 = SixteenBitLanes.interleavedHigh(r.0, r.1)
        let a2 = SixteenBitLanes.interleavedLow(r.2, r.3), a3 = SixteenBitLanes.interleavedHigh(r.2, r.3)
        let a4 = SixteenBitLanes.interleavedLow(r.4, r.5), a5 = SixteenBitLanes.interleavedHigh(r.4, r.5)
        let a6 = SixteenBitLanes.interleavedLow(r.6, r.7), a7 = SixteenBitLanes.interleavedHigh(r.6, r.7)
        let b0 = low32(a0, a2), b1 = high32(a0, a2), b2 = low32(a1, a3), b3 = high32(a1, a3)
        let b4 = low32(a4, a6), b5 = high32(a4, a6), b6 = low32(a5, a7), b7 = high32(a5, a7)
        return (low64(b0, b4), high64(b0, b4), low64(b1, b5), high64(b1, b5),
                low64(b2, b6), high64(b2, b6), low64(b3, b7), high64(b3, b7))
    }
}
