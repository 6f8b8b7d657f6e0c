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
        withTables(SRGBEncodingTable.eightBit) { t0, t1, t2, out in
            let m = matrix
            let (m0, m1, m2, m3, m4, m5, m6, m7, m8) = (m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8])
            var p = pixels
            // Wrapping arithmetic is exact here: |coefficient| ≤ 2^20 and 0 ≤ linear ≤ 2^15;
            // every index is a UInt8 (tables of 256) or clamped to 0 ... 32768 (table of 32769).
            for _ in 0..<count {
                let r = Int(t0[Int(p[0])]), g = Int(t1[Int(p[1])]), b = Int(t2[Int(p[2])])
                p[0] = out[Self.clamp((m0 &* r &+ m1 &* g &+ m2 &* b &+ 8192) &>> 14)]
                p[1] = out[Self.clamp((m3 &* r &+ m4 &* g &+ m5 &* b &+ 8192) &>> 14)]
                p[2] = out[Self.clamp((m6 &* r &+ m7 &* g &+ m8 &* b &+ 8192) &>> 14)]
                p += stride
            }
        }
    }

    /// Converts `count` pixels of `stride` samples in place; 16-bit big-endian samples.
    func run16(_ pixels: UnsafeMutablePointer<UInt8>, count: Int, stride: Int) {
        withTables(SRGBEncodingTable.sixteenBit) { t0, t1, t2, out in
            let m = matrix
            let (m0, m1, m2, m3, m4, m5, m6, m7, m8) = (m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8])
            var p = pixels
            for _ in 0..<count {
                let r = Self.interpolate(t0, Int(p[0]) &<< 8 | Int(p[1]))
                let g = Self.interpolate(t1, Int(p[2]) &<< 8 | Int(p[3]))
                let b = Self.interpolate(t2, Int(p[4]) &<< 8 | Int(p[5]))
                let red = out[Self.clamp((m0 &* r &+ m1 &* g &+ m2 &* b &+ 8192) &>> 14)]
                let green = out[Self.clamp((m3 &* r &+ m4 &* g &+ m5 &* b &+ 8192) &>> 14)]
                let blue = out[Self.clamp((m6 &* r &+ m7 &* g &+ m8 &* b &+ 8192) &>> 14)]
                p[0] = UInt8(truncatingIfNeeded: red &>> 8); p[1] = UInt8(truncatingIfNeeded: red)
                p[2] = UInt8(truncatingIfNeeded: green &>> 8); p[3] = UInt8(truncatingIfNeeded: green)
                p[4] = UInt8(truncatingIfNeeded: blue &>> 8); p[5] = UInt8(truncatingIfNeeded: blue)
                p += 2 &* stride
            }
        }
    }

    /// Calls `body` with raw pointers to the three linearisation tables and `encode` (all
    /// non-empty by construction, so the pointers exist).
    private func withTables<Output>(_ encode: [Output],
                                    _ body: (UnsafePointer<Int32>, UnsafePointer<Int32>, UnsafePointer<Int32>, UnsafePointer<Output>) -> Void) {
        linear[0].withUnsafeBufferPointer { t0 in
        linear[1].withUnsafeBufferPointer { t1 in
        linear[2].withUnsafeBufferPointer { t2 in
        encode.withUnsafeBufferPointer { out in
            guard let p0 = t0.baseAddress, let p1 = t1.baseAddress, let p2 = t2.baseAddress, let po = out.baseAddress else { return }
            body(p0, p1, p2, po)
        }}}}
    }

    /// A 16-bit sample through a 4097-entry table: entries 16 apart, linear in between.
    @inline(__always)
    static func interpolate(_ table: UnsafePointer<Int32>, _ sample: Int) -> Int {
        let index = sample &>> 4, fraction = sample & 15
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
    static func clamp(_ value: Int) -> Int { value < 0 ? 0 : (value > 32768 ? 32768 : value) }
}
