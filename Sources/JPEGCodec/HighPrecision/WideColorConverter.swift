/// Turns upsampled 16-bit component rows into big-endian 16-bit output pixels (``PixelFormat``
/// gray16 / rgb16), for 12-bit JPEG and for lossless JPEG: libjpeg's jdcolor.c arithmetic with
/// tables sized for the sample range.
final class WideColorConverter {
    let conversion: ColorConversion
    /// The largest sample (MAXJSAMPLE).
    let maxSample: Int32
    /// Entries in each YCbCr table (0 unless the conversion is YCbCr → RGB).
    private let tableSize: Int
    /// YCbCr tables (jdcolor.c `build_ycc_rgb_table` for this sample range), indexed by sample:
    /// round(1.402 · Cr'), round(1.772 · Cb'), −0.71414 · Cr' · 2^16, −0.34414 · Cb' · 2^16 + 2^15.
    private let crToR: UnsafeMutablePointer<Int32>, cbToB: UnsafeMutablePointer<Int32>
    private let crToG: UnsafeMutablePointer<Int32>, cbToG: UnsafeMutablePointer<Int32>

    /// Sets up `conversion` (gray, YCbCr → RGB or RGB) for samples up to `maxSample`.
    init(conversion: ColorConversion, maxSample: Int) {
        self.conversion = conversion
        self.maxSample = Int32(maxSample)
        tableSize = conversion == .yCbCrToRGB ? maxSample + 1 : 0
        let count = max(tableSize, 1)
        crToR = .allocate(capacity: count)
        cbToB = .allocate(capacity: count)
        crToG = .allocate(capacity: count)
        cbToG = .allocate(capacity: count)
        let centre = Int64(maxSample + 1) / 2, half = Int64(1) << 15
        for i in 0..<count {
            // Built in 64 bits: FIX(1.772) · 2^15 passes 2^31 for 16-bit samples.
            let x = Int64(i) - centre
            (crToR + i).initialize(to: Int32(truncatingIfNeeded: (Int64(YCbCrTables.crToRFactor) * x + half) >> 16))
            (cbToB + i).initialize(to: Int32(truncatingIfNeeded: (Int64(YCbCrTables.cbToBFactor) * x + half) >> 16))
            (crToG + i).initialize(to: Int32(truncatingIfNeeded: Int64(YCbCrTables.crToGFactor) * x))
            (cbToG + i).initialize(to: Int32(truncatingIfNeeded: Int64(YCbCrTables.cbToGFactor) * x + half))
        }
    }

    deinit {
        crToR.deallocate()
        cbToB.deallocate()
        crToG.deallocate()
        cbToG.deallocate()
    }

    /// Converts `width` pixels of `rows` (one per component) into `output`.
    func convert(rows: UnsafePointer<UnsafePointer<UInt16>>, width: Int, into output: UnsafeMutablePointer<UInt8>) {
        let out = UnsafeMutableRawPointer(output)
        switch conversion {
        case .yCbCrToRGB where maxSample <= 4095:
            // Up to 12 bits the table arithmetic fits in 32 bits: written out, it needs no table
            // loads (which would keep the loop from vectorising) and gives the tables' values.
            let y = rows[0], cb = rows[1], cr = rows[2]
            let top = maxSample, centre = (maxSample + 1) / 2
            for x in 0..<width {
                let luma = Int32(y[x])
                let blue = min(Int32(cb[x]), top) &- centre, red = min(Int32(cr[x]), top) &- centre
                let r = min(max(luma &+ ((red &* YCbCrTables.crToRFactor &+ 32768) &>> 16), 0), top)
                let g = min(max(luma &+ ((blue &* YCbCrTables.cbToGFactor &+ red &* YCbCrTables.crToGFactor &+ 32768) &>> 16), 0), top)
                let b = min(max(luma &+ ((blue &* YCbCrTables.cbToBFactor &+ 32768) &>> 16), 0), top)
                out.storeBytes(of: UInt16(truncatingIfNeeded: r).bigEndian, toByteOffset: 6 * x, as: UInt16.self)
                out.storeBytes(of: UInt16(truncatingIfNeeded: g).bigEndian, toByteOffset: 6 * x + 2, as: UInt16.self)
                out.storeBytes(of: UInt16(truncatingIfNeeded: b).bigEndian, toByteOffset: 6 * x + 4, as: UInt16.self)
            }
        case .yCbCrToRGB:
            let y = rows[0], cb = rows[1], cr = rows[2]
            let last = tableSize - 1, top = maxSample
            let crToR = self.crToR, cbToB = self.cbToB, crToG = self.crToG, cbToG = self.cbToG
            for x in 0..<width {
                // Samples beyond the table (corrupt lossless data only) are clamped to it.
                let luma = Int32(y[x]), blue = min(Int(cb[x]), last), red = min(Int(cr[x]), last)
                // jdcolor.c's range limit: colour arithmetic is clamped (copied samples are not).
                let r = min(max(luma &+ crToR[red], 0), top)
                let g = min(max(luma &+ ((cbToG[blue] &+ crToG[red]) &>> 16), 0), top)
                let b = min(max(luma &+ cbToB[blue], 0), top)
                out.storeBytes(of: UInt16(truncatingIfNeeded: r).bigEndian, toByteOffset: 6 * x, as: UInt16.self)
                out.storeBytes(of: UInt16(truncatingIfNeeded: g).bigEndian, toByteOffset: 6 * x + 2, as: UInt16.self)
                out.storeBytes(of: UInt16(truncatingIfNeeded: b).bigEndian, toByteOffset: 6 * x + 4, as: UInt16.self)
            }
        case .gray:
            let gray = rows[0]
            for x in 0..<width { out.storeBytes(of: gray[x].bigEndian, toByteOffset: 2 * x, as: UInt16.self) }
        default:
            let components = conversion.bytesPerPixel
            for c in 0..<components {
                let source = rows[c]
                for x in 0..<width {
                    out.storeBytes(of: source[x].bigEndian, toByteOffset: 2 * (x * components + c), as: UInt16.self)
                }
            }
        }
    }
}
