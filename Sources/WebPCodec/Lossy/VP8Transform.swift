/// The inverse transforms of VP8 (RFC 6386 section 14.3–14.4), with libwebp's integer
/// arithmetic (`TransformOne`, `TransformWHT`): results are added to the prediction and clamped.
enum VP8Transform {
    /// `x * sqrt(2) * cos(pi/8)`: 20091 / 65536 + 1.
    @inline(__always) static func mul1(_ a: Int) -> Int { ((a * 20091) >> 16) + a }
    /// `x * sqrt(2) * sin(pi/8)`: 35468 / 65536.
    @inline(__always) static func mul2(_ a: Int) -> Int { (a * 35468) >> 16 }

    /// Inverse DCT of one 4×4 block `input` (16 coefficients, row-major), added to the 4×4
    /// pixels at `dst` (row stride `stride`).
    static func inverseDCT(_ input: UnsafePointer<Int16>, _ dst: UnsafeMutablePointer<UInt8>, stride: Int) {
        var temp = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &temp) { raw in
            let tmp = raw.baseAddress!.assumingMemoryBound(to: Int.self)
            for i in 0..<4 {  // vertical pass
                let i0 = Int(input[i]), i4 = Int(input[4 + i]), i8 = Int(input[8 + i]), i12 = Int(input[12 + i])
                let a = i0 + i8
                let b = i0 - i8
                let c = mul2(i4) - mul1(i12)
                let d = mul1(i4) + mul2(i12)
                tmp[4 * i] = a + d
                tmp[4 * i + 1] = b + c
                tmp[4 * i + 2] = b - c
                tmp[4 * i + 3] = a - d
            }
            for i in 0..<4 {  // horizontal pass
                let dc = tmp[i] + 4
                let a = dc + tmp[8 + i]
                let b = dc - tmp[8 + i]
                let c = mul2(tmp[4 + i]) - mul1(tmp[12 + i])
                let d = mul1(tmp[4 + i]) + mul2(tmp[12 + i])
                let row = dst + i * stride
                row[0] = clampAdd(row[0], (a + d) >> 3)
                row[1] = clampAdd(row[1], (b + c) >> 3)
                row[2] = clampAdd(row[2], (b - c) >> 3)
                row[3] = clampAdd(row[3], (a - d) >> 3)
            }
        }
    }

    @inline(__always)
    static func clampAdd(_ pixel: UInt8, _ delta: Int) -> UInt8 {
        UInt8(clamping: Int(pixel) + delta)
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
