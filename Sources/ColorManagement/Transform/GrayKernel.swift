/// Gray → gray sRGB through one table: 256 entries for 8-bit samples, or 4097 for 16-bit ones
/// (interpolated on the low 4 bits). Alpha passes through.
struct GrayKernel: Sendable {
    let table8: [UInt8]
    let table16: [Int32]

    init(model: ConversionModel, sixteenBitInput: Bool) {
        if sixteenBitInput {
            table8 = []
            table16 = (0...4096).map {
                Int32((model.gray(MatrixShaperKernel.tablePosition($0, sixteenBitInput: true)) * 65535).rounded())
            }
        } else {
            table8 = (0...255).map { UInt8((model.gray(Double($0) / 255) * 255).rounded()) }
            table16 = []
        }
    }

    func run8(_ pixels: UnsafeMutablePointer<UInt8>, count: Int, stride: Int) {
        table8.withUnsafeBufferPointer { table in
            var p = pixels
            for _ in 0..<count {
                p[0] = table[Int(p[0])]
                p += stride
            }
        }
    }

    func run16(_ pixels: UnsafeMutablePointer<UInt8>, count: Int, stride: Int) {
        table16.withUnsafeBufferPointer { buffer in
            guard let table = buffer.baseAddress else { return }
            var p = pixels
            for _ in 0..<count {
                let value = MatrixShaperKernel.interpolate(table, Int(p[0]) << 8 | Int(p[1]))
                p[0] = UInt8(truncatingIfNeeded: value >> 8)
                p[1] = UInt8(truncatingIfNeeded: value)
                p += 2 * stride
            }
        }
    }
}
