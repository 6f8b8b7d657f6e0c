/// Converts one output row from upsampled component rows (libjpeg jdcolor.c arithmetic).
enum RowColorConverter {
    /// Converts `width` pixels. `rows[c]` holds at least `width` samples of component c.
    static func convert(_ conversion: ColorConversion, rows: UnsafePointer<UnsafePointer<UInt8>>,
                        into output: UnsafeMutablePointer<UInt8>, width: Int) {
        switch conversion {
        case .gray:
            output.update(from: rows[0], count: width)
        case .rgb:
            interleave3(rows[0], rows[1], rows[2], into: output, width: width)
        case .yCbCrToRGB:
            PairedYCbCrConverter.convert(rows[0], rows[1], rows[2], into: output, width: width)
        case .cmyk:
            let c = rows[0], m = rows[1], y = rows[2], k = rows[3]
            for x in 0..<width {
                output[4 * x] = c[x]; output[4 * x + 1] = m[x]; output[4 * x + 2] = y[x]; output[4 * x + 3] = k[x]
            }
        case .cmykToRGB:
            let c = rows[0], m = rows[1], y = rows[2], k = rows[3]
            for x in 0..<width {
                let kk = UInt32(k[x])
                output[3 * x] = scaleByK(c[x], kk)
                output[3 * x + 1] = scaleByK(m[x], kk)
                output[3 * x + 2] = scaleByK(y[x], kk)
            }
        case .ycckToCMYK, .ycckToRGB:
            let tables = YCbCrTables.shared
            let yRow = rows[0], cbRow = rows[1], crRow = rows[2], kRow = rows[3]
            let toRGB = conversion == .ycckToRGB
            for x in 0..<width {
                let (r, g, b) = yccPixel(yRow[x], cbRow[x], crRow[x], tables)
                // jdcolor.c ycck_cmyk_convert: C = 255 − R etc. (Adobe stores CMYK inverted); K passes through.
                let c = 255 &- r, m = 255 &- g, y = 255 &- b, k = kRow[x]
                if toRGB {
                    let kk = UInt32(k)
                    output[3 * x] = scaleByK(c, kk); output[3 * x + 1] = scaleByK(m, kk); output[3 * x + 2] = scaleByK(y, kk)
                } else {
                    output[4 * x] = c; output[4 * x + 1] = m; output[4 * x + 2] = y; output[4 * x + 3] = k
                }
            }
        }
    }

    /// round(v · k / 255): v·k is never an odd multiple of 127.5, so adding 127 rounds exactly.
    @inline(__always)
    static func scaleByK(_ value: UInt8, _ k: UInt32) -> UInt8 {
        UInt8(truncatingIfNeeded: (UInt32(value) * k + 127) / 255)
    }

    /// One YCbCr pixel to RGB, clamped to 0...255.
    @inline(__always)
    static func yccPixel(_ y: UInt8, _ cb: UInt8, _ cr: UInt8, _ t: YCbCrTables) -> (UInt8, UInt8, UInt8) {
        let luma = Int32(y)
        let red = luma &+ t.crToR[Int(cr)]
        let green = luma &+ ((t.cbToG[Int(cb)] &+ t.crToG[Int(cr)]) >> YCbCrTables.scaleBits)
        let blue = luma &+ t.cbToB[Int(cb)]
        return (clamp255(red), clamp255(green), clamp255(blue))
    }

    @inline(__always)
    static func clamp255(_ v: Int32) -> UInt8 { UInt8(truncatingIfNeeded: Swift.min(Swift.max(v, 0), 255)) }

    /// YCbCr rows → RGB row with the table arithmetic written out (no table loads), in a form the
    /// compiler vectorises on 16-bit lanes: the careful twin of ``PairedYCbCrConverter``, which
    /// leaves it the last pixels of a row. FIX(1.402) and FIX(1.772) are split into a power of two
    /// plus a 16-bit remainder (91881 = 65536 + 26345, 116130 = 131072 − 14942), and the rounded
    /// remainder term (v · c + 2^15) >> 16 is computed as ((2v · c) >> 16 + 1) >> 1, a 16-bit
    /// multiply-high; the two G terms are summed in 32 bits before their single rounding
    /// (46802 = 65536 − 18734). Every result equals the tables' exactly.
    static func yCbCrToRGB(_ y: UnsafePointer<UInt8>, _ cb: UnsafePointer<UInt8>, _ cr: UnsafePointer<UInt8>,
                           into output: UnsafeMutablePointer<UInt8>, width: Int) {
        @inline(__always) func multiplyHigh(_ a: Int16, _ b: Int16) -> Int16 {
            Int16(truncatingIfNeeded: (Int32(a) &* Int32(b)) &>> 16)
        }
        for x in 0..<width {
            let luma = Int16(y[x])
            let blue = Int16(cb[x]) &- 128, red = Int16(cr[x]) &- 128
            let r = luma &+ red &+ ((multiplyHigh(red &<< 1, 26345) &+ 1) &>> 1)
            let b = luma &+ (blue &<< 1) &+ ((multiplyHigh(blue &<< 1, -14942) &+ 1) &>> 1)
            let g = Int32(luma) &- Int32(red) &+ ((Int32(blue) &* -22554 &+ Int32(red) &* 18734 &+ (1 << 15)) &>> 16)
            output[3 * x] = UInt8(truncatingIfNeeded: Swift.min(Swift.max(r, 0), 255))
            output[3 * x + 1] = UInt8(truncatingIfNeeded: Swift.min(Swift.max(g, 0), 255))
            output[3 * x + 2] = UInt8(truncatingIfNeeded: Swift.min(Swift.max(b, 0), 255))
        }
    }

    /// Three planes → interleaved triples.
    static func interleave3(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ c: UnsafePointer<UInt8>,
                            into output: UnsafeMutablePointer<UInt8>, width: Int) {
        for x in 0..<width {
            output[3 * x] = a[x]; output[3 * x + 1] = b[x]; output[3 * x + 2] = c[x]
        }
    }
}
