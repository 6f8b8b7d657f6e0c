/// The inverse transforms of VP8 (RFC 6386 section 14.3–14.4), with libwebp's integer
/// arithmetic (`TransformOne`, `TransformWHT`): results are added to the prediction and clamped.
enum VP8Transform {
    // Coefficients are Int16 and every intermediate value stays below 2^22 in magnitude, so the
    // wrapping arithmetic below (on 64-bit Int) is exact.
    /// `x * sqrt(2) * cos(pi/8)`: 20091 / 65536 + 1.
    @inline(__always) static func mul1(_ a: Int) -> Int { ((a &* 20091) &>> 16) &+ a }
    /// `x * sqrt(2) * sin(pi/8)`: 35468 / 65536.
    @inline(__always) static func mul2(_ a: Int) -> Int { (a &* 35468) &>> 16 }

    /// Adds the inverse transform of the block `input` to the 4×4 pixels at `dst`, by the cheapest
    /// exact route for the block's `kind` (libwebp's `nz` code: 1 DC only, 2 only coefficients 0, 1
    /// and 4, 3 any); kind 0 adds nothing.
    @inline(__always)
    static func add(kind: UInt32, _ input: UnsafePointer<Int16>, _ dst: UnsafeMutablePointer<UInt8>, stride: Int) {
        switch kind {
        case 0: return
        case 1: inverseDCOnlyLanes(input, dst, stride: stride)
        case 2: inverseThreeCoefficientsFast(input, dst, stride: stride)
        default: inverseDCTFast(input, dst, stride: stride)
        }
    }

    /// Inverse DCT of one 4×4 block `input` (16 coefficients, row-major), added to the 4×4
    /// pixels at `dst` (row stride `stride`).
    static func inverseDCT(_ input: UnsafePointer<Int16>, _ dst: UnsafeMutablePointer<UInt8>, stride: Int) {
        // Vertical pass into 16 locals (column-major, as libwebp's tmp), then the horizontal pass.
        @inline(__always) func column(_ i: Int) -> (Int, Int, Int, Int) {
            let i0 = Int(input[i]), i4 = Int(input[4 &+ i]), i8 = Int(input[8 &+ i]), i12 = Int(input[12 &+ i])
            let a = i0 &+ i8, b = i0 &- i8
            let c = mul2(i4) &- mul1(i12), d = mul1(i4) &+ mul2(i12)
            return (a &+ d, b &+ c, b &- c, a &- d)
        }
        let t0 = column(0), t1 = column(1), t2 = column(2), t3 = column(3)
        @inline(__always) func row(_ i: Int, _ x0: Int, _ x1: Int, _ x2: Int, _ x3: Int) {
            let dc = x0 &+ 4
            let a = dc &+ x2, b = dc &- x2
            let c = mul2(x1) &- mul1(x3), d = mul1(x1) &+ mul2(x3)
            let out = dst + i &* stride
            out[0] = clampAdd(out[0], (a &+ d) &>> 3)
            out[1] = clampAdd(out[1], (b &+ c) &>> 3)
            out[2] = clampAdd(out[2], (b &- c) &>> 3)
            out[3] = clampAdd(out[3], (a &- d) &>> 3)
        }
        row(0, t0.0, t1.0, t2.0, t3.0)
        row(1, t0.1, t1.1, t2.1, t3.1)
        row(2, t0.2, t1.2, t2.2, t3.2)
        row(3, t0.3, t1.3, t2.3, t3.3)
    }

    /// The inverse DCT of a block whose only coefficient is the DC (libwebp `TransformDC`): the
    /// same value added to all 16 pixels, exactly what ``inverseDCT(_:_:stride:)`` gives for it.
    static func inverseDCOnly(_ input: UnsafePointer<Int16>, _ dst: UnsafeMutablePointer<UInt8>, stride: Int) {
        let delta = (Int(input[0]) &+ 4) &>> 3
        for i in 0..<4 {
            let out = dst + i &* stride
            out[0] = clampAdd(out[0], delta)
            out[1] = clampAdd(out[1], delta)
            out[2] = clampAdd(out[2], delta)
            out[3] = clampAdd(out[3], delta)
        }
    }

    /// The inverse DCT of a block with coefficients 0, 1 and 4 only (libwebp `TransformAC3`),
    /// equal to ``inverseDCT(_:_:stride:)`` for such blocks.
    static func inverseThreeCoefficients(_ input: UnsafePointer<Int16>, _ dst: UnsafeMutablePointer<UInt8>, stride: Int) {
        let a = Int(input[0]) &+ 4
        let c4 = mul2(Int(input[4])), d4 = mul1(Int(input[4]))
        let c1 = mul2(Int(input[1])), d1 = mul1(Int(input[1]))
        @inline(__always) func row(_ i: Int, _ dc: Int) {
            let out = dst + i &* stride
            out[0] = clampAdd(out[0], (dc &+ d1) &>> 3)
            out[1] = clampAdd(out[1], (dc &+ c1) &>> 3)
            out[2] = clampAdd(out[2], (dc &- c1) &>> 3)
            out[3] = clampAdd(out[3], (dc &- d1) &>> 3)
        }
        row(0, a &+ d4)
        row(1, a &+ c4)
        row(2, a &- c4)
        row(3, a &- d4)
    }

    @inline(__always)
    static func clampAdd(_ pixel: UInt8, _ delta: Int) -> UInt8 {
        UInt8(clamping: Int(pixel) &+ delta)
    }

    /// Inverse Walsh–Hadamard transform of the 16 luma DC values (RFC 6386 section 14.3):
    /// writes the DC of each 4×4 block to `out[16 * k]`. Values are stored as 16-bit like libwebp.
    static func inverseWHT(_ input: UnsafePointer<Int16>, _ out: UnsafeMutablePointer<Int16>) {
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 16) { buffer in
        let tmp = buffer.baseAddress!
        for i in 0..<4 {
            let a0 = Int(input[i]) + Int(input[12 + i])
            let a1 = Int(input[4 + i]) + Int(input[8 + i])
            let a2 = Int(input[4 + i]) - Int(input[8 + i])
            let a3 = Int(input[i]) - Int(input[12 + i])
            tmp[i] = a0 + a1
            tmp[8 + i] = a0 - a1
            tmp[4 + i] = a3 + a2
            tmp[12 + i] = a3 - a2
        }
        for i in 0..<4 {
            let dc = tmp[i * 4] + 3  // rounding
            let a0 = dc + tmp[3 + i * 4]
            let a1 = tmp[1 + i * 4] + tmp[2 + i * 4]
            let a2 = tmp[1 + i * 4] - tmp[2 + i * 4]
            let a3 = dc - tmp[3 + i * 4]
            let base = out + 64 * i
            base[0] = Int16(truncatingIfNeeded: (a0 + a1) >> 3)
            base[16] = Int16(truncatingIfNeeded: (a3 + a2) >> 3)
            base[32] = Int16(truncatingIfNeeded: (a0 - a1) >> 3)
            base[48] = Int16(truncatingIfNeeded: (a3 - a2) >> 3)
        }
        }
    }
}
