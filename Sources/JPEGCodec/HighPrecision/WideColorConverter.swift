/// Turns upsampled 16-bit component rows into big-endian 16-bit output pixels (``PixelFormat``
/// gray16 / rgb16), for 12-bit JPEG and for lossless JPEG above 8 bits: libjpeg's jdcolor.c
/// arithmetic with tables sized for the sample range.
final class WideColorConverter {
    let conversion: ColorConversion
    /// The largest sample (MAXJSAMPLE).
    let maxSample: Int32
    /// YCbCr tables (jdcolor.c `build_ycc_rgb_table` for this sample range), indexed by sample.
    private let crToR: [Int32], cbToB: [Int32], crToG: [Int32], cbToG: [Int32]

    /// Sets up `conversion` (gray, YCbCr → RGB or RGB) for samples up to `maxSample`.
    init(conversion: ColorConversion, maxSample: Int) {
        self.conversion = conversion
        self.maxSample = Int32(maxSample)
        let centre = Int64(maxSample + 1) / 2, half = Int64(1) << 15
        let range = conversion == .yCbCrToRGB ? 0..<(maxSample + 1) : 0..<0
        // Built in 64 bits: FIX(1.772) · 2^15 passes 2^31 for 16-bit samples.
        crToR = range.map { Int32(truncatingIfNeeded: (Int64(YCbCrTables.crToRFactor) * (Int64($0) - centre) + half) >> 16) }
        cbToB = range.map { Int32(truncatingIfNeeded: (Int64(YCbCrTables.cbToBFactor) * (Int64($0) - centre) + half) >> 16) }
        crToG = range.map { Int32(truncatingIfNeeded: Int64(YCbCrTables.crToGFactor) * (Int64($0) - centre)) }
        cbToG = range.map { Int32(truncatingIfNeeded: Int64(YCbCrTables.cbToGFactor) * (Int64($0) - centre) + half) }
    }

    /// Converts `width` pixels of `rows` (one per component) into `output`.
    func convert(rows: UnsafePointer<UnsafePointer<UInt16>>, width: Int, into output: UnsafeMutablePointer<UInt8>) {
        @inline(__always) func store(_ sample: UInt16, at index: Int) {
            output[2 * index] = UInt8(truncatingIfNeeded: sample >> 8)
            output[2 * index + 1] = UInt8(truncatingIfNeeded: sample)
        }
        // jdcolor.c's range limit: colour arithmetic is clamped, copied samples are not.
        @inline(__always) func put(_ value: Int32, at index: Int) {
            store(UInt16(truncatingIfNeeded: min(max(value, 0), maxSample)), at: index)
        }
        switch conversion {
        case .yCbCrToRGB:
            let y = rows[0], cb = rows[1], cr = rows[2]
            crToR.withUnsafeBufferPointer { crToR in
            cbToB.withUnsafeBufferPointer { cbToB in
            crToG.withUnsafeBufferPointer { crToG in
            cbToG.withUnsafeBufferPointer { cbToG in
                // Samples beyond the table (corrupt lossless data only) are clamped to it.
                let last = crToR.count - 1
                for x in 0..<width {
                    let luma = Int32(y[x]), blue = min(Int(cb[x]), last), red = min(Int(cr[x]), last)
                    put(luma &+ crToR[red], at: 3 * x)
                    put(luma &+ ((cbToG[blue] &+ crToG[red]) &>> 16), at: 3 * x + 1)
                    put(luma &+ cbToB[blue], at: 3 * x + 2)
                }
            }}}}
        case .gray:
            for x in 0..<width { store(rows[0][x], at: x) }
        default:
            let components = conversion.bytesPerPixel
            for x in 0..<width {
                for c in 0..<components { store(rows[c][x], at: components * x + c) }
            }
        }
    }
}
