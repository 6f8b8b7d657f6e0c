/// Matrix/TRC conversion in fixed point: a linearisation table per channel (Q15), the 3×3
/// matrix in Q14, the shared Q15 → sRGB encoding table. Alpha passes through.
struct MatrixShaperKernel: Sendable {
    /// Per channel: 256 entries for 8-bit input, 4097 for 16-bit input (interpolated on the
    /// low 4 bits), linear Q15.
    let linear: [[Int32]]
    /// Row-major Q14 coefficients.
    let matrix: [Int]
    let sixteenBitInput: Bool

    init(curves: [ToneCurve], toLinearSRGB: Matrix3, sixteenBitInput: Bool) {
        self.sixteenBitInput = sixteenBitInput
        let entries = sixteenBitInput ? 4097 : 256
        let scale = Double(SRGBEncodingTable.one)
        linear = curves.map { curve in
            (0..<entries).map { Int32((curve(Self.tablePosition($0, sixteenBitInput: sixteenBitInput)) * scale).rounded()) }
        }
        var coefficients: [Int] = []
        for row in 0..<3 {
            let r = toLinearSRGB.row(row)
            for value in [r.x, r.y, r.z] {
                // Coefficients of real profiles stay within ±8; anything wilder is clamped, not trapped on.
                coefficients.append(Int((min(max(value, -64), 64) * 16384).rounded()))
            }
        }
        matrix = coefficients
    }

    /// Converts `count` pixels of `stride` samples (3 or 4) in place; 8-bit samples.
    func run8(_ pixels: UnsafeMutablePointer<UInt8>, count: Int, stride: Int) {
        let encode = SRGBEncodingTable.eightBit
        linear[0].withUnsafeBufferPointer { t0 in
        linear[1].withUnsafeBufferPointer { t1 in
        linear[2].withUnsafeBufferPointer { t2 in
        encode.withUnsafeBufferPointer { out in
            let m = matrix
            let (m0, m1, m2, m3, m4, m5, m6, m7, m8) = (m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8])
            var p = pixels
            // Wrapping arithmetic is exact here: |coefficient| ≤ 2^20 and 0 ≤ linear ≤ 2^15.
            for _ in 0..<count {
                let r = Int(t0[Int(p[0])]), g = Int(t1[Int(p[1])]), b = Int(t2[Int(p[2])])
                p[0] = out[Self.clamp((m0 &* r &+ m1 &* g &+ m2 &* b &+ 8192) &>> 14)]
                p[1] = out[Self.clamp((m3 &* r &+ m4 &* g &+ m5 &* b &+ 8192) &>> 14)]
                p[2] = out[Self.clamp((m6 &* r &+ m7 &* g &+ m8 &* b &+ 8192) &>> 14)]
                p += stride
            }
        }}}}
    }

    /// Converts `count` pixels of `stride` samples in place; 16-bit big-endian samples.
    func run16(_ pixels: UnsafeMutablePointer<UInt8>, count: Int, stride: Int) {
        let encode = SRGBEncodingTable.sixteenBit
        linear[0].withUnsafeBufferPointer { t0 in
        linear[1].withUnsafeBufferPointer { t1 in
        linear[2].withUnsafeBufferPointer { t2 in
        encode.withUnsafeBufferPointer { out in
            let m = matrix
            var p = pixels
            for _ in 0..<count {
                let r = Self.interpolate(t0, Int(p[0]) << 8 | Int(p[1]))
                let g = Self.interpolate(t1, Int(p[2]) << 8 | Int(p[3]))
                let b = Self.interpolate(t2, Int(p[4]) << 8 | Int(p[5]))
                for channel in 0..<3 {
                    let value = out[Self.clamp((m[3 * channel] &* r &+ m[3 * channel + 1] &* g &+ m[3 * channel + 2] &* b &+ 8192) &>> 14)]
                    p[2 * channel] = UInt8(truncatingIfNeeded: value >> 8)
                    p[2 * channel + 1] = UInt8(truncatingIfNeeded: value)
                }
                p += 2 * stride
            }
        }}}}
    }

    /// A 16-bit sample through a 4097-entry table: entries 16 apart, linear in between.
    @inline(__always)
    static func interpolate(_ table: UnsafeBufferPointer<Int32>, _ sample: Int) -> Int {
        let index = sample >> 4, fraction = sample & 15
        let low = Int(table[index])
        // Sample 65535 has index 4095 and fraction 15: entry 4096 exists.
        return low &+ (((Int(table[index + 1]) &- low) &* fraction &+ 8) &>> 4)
    }

    /// The input (0 ... 1) of table entry `index`: sample `index` of 255, or sample 16·`index` of
    /// 65535 (the last entry, 65536, stands for 65535).
    static func tablePosition(_ index: Int, sixteenBitInput: Bool) -> Double {
        sixteenBitInput ? Double(min(16 * index, 65535)) / 65535 : Double(index) / 255
    }

    @inline(__always)
    static func clamp(_ value: Int) -> Int { min(max(value, 0), SRGBEncodingTable.one) }
}
