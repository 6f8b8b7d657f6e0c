/// ``ReducedInverseDCT``'s 4×4 output (jidctred.c, DCT-domain scaling to 1/2) on eight 16-bit
/// lanes, arranged as ``EightLaneInverseDCT``: the column pass on the input rows as they lie
/// (lane = column), a transpose, the row pass (lane = row, lanes 4...7 idle), a transpose back.
/// Products of pairs are `pmaddwd`s (``SixteenBitLanes/products(_:_:_:_:)``).
///
/// Pixels equal the scalar twin's for every block: the 32-bit products and sums wrap exactly as
/// its `&*`/`&+` do, and its shortcuts for zero AC rows and columns give what the full formula
/// gives. Its inputs and first-pass outputs are 32-bit values, ours 16-bit: a block with a used
/// coefficient or a first-pass value outside −2^15...2^15 − 1 (only corrupt data makes one)
/// is handed to the scalar twin.
enum EightLaneReducedInverseDCT {
    typealias Row = SixteenBitLanes.Row
    typealias Half = SixteenBitLanes.Half
    typealias Wide = SixteenBitLanes.Wide

    /// One block (dequantized, natural order) into 4×4 samples at `output`, rows `stride` apart,
    /// exactly as ``ReducedInverseDCT/transform4x4(_:workspace:output:stride:)``; `workspace`
    /// serves the blocks handed to it.
    @inline(__always)
    static func transform4x4(_ coefficients: UnsafePointer<Int32>, workspace: UnsafeMutablePointer<Int32>,
                             output: UnsafeMutablePointer<UInt8>, stride: Int) {
        let input = UnsafeRawPointer(coefficients)
        // v fits in 16 bits exactly when v + 2^15 has no bits above bit 15: one OR checks them all.
        let offset = Half(repeating: 1 << 15)
        transform4x4(loadingRow: { r, outside in
            let low = input.loadUnaligned(fromByteOffset: r * 32, as: Half.self)
            let high = input.loadUnaligned(fromByteOffset: r * 32 + 16, as: Half.self)
            outside |= (low &+ offset) | (high &+ offset)
            return SixteenBitLanes.narrowed(low, high)
        }, fallback: {
            ReducedInverseDCT.transform4x4(coefficients, workspace: workspace, output: output, stride: stride)
        }, output: output, stride: stride)
    }

    /// ``transform4x4(_:workspace:output:stride:)`` for 16-bit coefficients (sequential storage,
    /// progressive drawing): each row is one load and always fits. `workspace` holds 128 values:
    /// the rare blocks handed on are widened into its second half first.
    @inline(__always)
    static func transform4x4(_ coefficients: UnsafePointer<Int16>, workspace: UnsafeMutablePointer<Int32>,
                             output: UnsafeMutablePointer<UInt8>, stride: Int) {
        let input = UnsafeRawPointer(coefficients)
        transform4x4(loadingRow: { r, _ in input.loadUnaligned(fromByteOffset: r * 16, as: Row.self) }, fallback: {
            let wide = workspace + 64
            SixteenBitLanes.widen(coefficients, into: wide)
            ReducedInverseDCT.transform4x4(UnsafePointer(wide), workspace: workspace, output: output, stride: stride)
        }, output: output, stride: stride)
    }

    /// The transform with input row r as `loadingRow(r, &outside)` (which ORs into `outside` any
    /// lane whose value, plus 2^15, leaves 16 bits) and `fallback` run instead for blocks with
    /// such an input or first-pass value.
    @inline(__always)
    private static func transform4x4(loadingRow: (Int, inout Half) -> Row, fallback: () -> Void,
                                     output: UnsafeMutablePointer<UInt8>, stride: Int) {
        let offset = Half(repeating: 1 << 15)
        var outside = Half()
        @inline(__always) func row(_ r: Int) -> Row { loadingRow(r, &outside) }
        // Row 4 of the input is not used by the 8-to-4 step.
        let x0 = row(0), x1 = row(1), x2 = row(2), x3 = row(3), x5 = row(5), x6 = row(6), x7 = row(7)
        let pass1Shift = InverseDCT.constantBits - InverseDCT.pass1Bits + 1
        let pass1Bias = Half(repeating: 1 &<< (pass1Shift - 1))
        @inline(__always) func descaled(_ v: Wide) -> Row {
            let low = (v.low &+ pass1Bias) &>> pass1Shift, high = (v.high &+ pass1Bias) &>> pass1Shift
            outside |= (low &+ offset) | (high &+ offset)
            return SixteenBitLanes.narrowed(low, high)
        }
        let columns = step4(x0, x1, x2, x3, x5, x6, x7)
        let w0 = descaled(columns.0), w1 = descaled(columns.1), w2 = descaled(columns.2), w3 = descaled(columns.3)
        guard !any(outside &>> 16 .!= 0) else {
            fallback()
            return
        }
        // Row pass on the transposed block: lane r of input j is row r's value j (lanes 4...7 zero).
        let zero = Row()
        let t = EightLaneInverseDCT.transposed((w0, w1, w2, w3, zero, zero, zero, zero))
        let samples = step4(t.0, t.1, t.2, t.3, t.5, t.6, t.7)
        let shift = InverseDCT.constantBits + InverseDCT.pass1Bits + 3 + 1
        let bias = Half(repeating: 1 &<< (shift - 1))
        // The +128 comes after the shift, in 16 bits, as the scalar twin adds it (no 32-bit wrap).
        @inline(__always) func sampleColumn(_ v: Wide) -> Row {
            SixteenBitLanes.narrowed((v.low &+ bias) &>> shift, (v.high &+ bias) &>> shift) &+ 128
        }
        let s = EightLaneInverseDCT.transposed((sampleColumn(samples.0), sampleColumn(samples.1),
                                                sampleColumn(samples.2), sampleColumn(samples.3), zero, zero, zero, zero))
        // Row r of the block is lanes 0...3 of s.r.
        @inline(__always) func store(_ a: Row, _ b: Row, rows r: Int) {
            let bytes = unsafeBitCast(SixteenBitLanes.clampedBytes(a, b), to: SIMD4<UInt32>.self)
            UnsafeMutableRawPointer(output + r * stride).storeBytes(of: bytes[0], as: UInt32.self)
            UnsafeMutableRawPointer(output + (r + 1) * stride).storeBytes(of: bytes[2], as: UInt32.self)
        }
        store(s.0, s.1, rows: 0)
        store(s.2, s.3, rows: 2)
    }

    /// `v · 2^14` in 32 bits: `v` moved into the high half of each lane and shifted down by 2.
    @inline(__always)
    static func scaledUp(_ v: Row) -> Wide {
        let zero = Row()
        let shift = 16 - (InverseDCT.constantBits + 1)
        return (unsafeBitCast(SixteenBitLanes.interleavedLow(zero, v), to: Half.self) &>> shift,
                unsafeBitCast(SixteenBitLanes.interleavedHigh(zero, v), to: Half.self) &>> shift)
    }

    /// The 8-to-4 step of ``ReducedInverseDCT`` on eight lanes: four outputs in 32 bits, scaled
    /// by 2^(constantBits + 1).
    @inline(__always)
    static func step4(_ x0: Row, _ x1: Row, _ x2: Row, _ x3: Row, _ x5: Row, _ x6: Row, _ x7: Row) -> (Wide, Wide, Wide, Wide) {
        typealias R = ReducedInverseDCT
        typealias L = SixteenBitLanes
        let tmp0 = scaledUp(x0)
        let tmp2 = L.products(x2, x6, InverseDCT.fix1_847759065, -InverseDCT.fix0_765366865)
        let tmp10 = L.sum(tmp0, tmp2), tmp12 = L.difference(tmp0, tmp2)
        let odd0 = L.sum(L.products(x7, x5, -R.fix0_211164243, R.fix1_451774981),
                         L.products(x3, x1, -R.fix2_172734803, R.fix1_061594337))
        let odd2 = L.sum(L.products(x7, x5, -R.fix0_509795579, -R.fix0_601344887),
                         L.products(x3, x1, InverseDCT.fix0_899976223, InverseDCT.fix2_562915447))
        return (L.sum(tmp10, odd2), L.sum(tmp12, odd0), L.difference(tmp12, odd0), L.difference(tmp10, odd2))
    }
}
