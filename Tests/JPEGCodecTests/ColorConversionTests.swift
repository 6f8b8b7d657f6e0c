import XCTest
@testable import JPEGCodec

/// The written-out YCbCr → RGB arithmetic against libjpeg's table formulation, for every Cb, Cr pair.
final class ColorConversionTests: XCTestCase {
    func testYCbCrConversionEqualsTheTablesForEveryChromaPair() {
        let tables = YCbCrTables.shared
        let width = 256 * 256
        let cb = (0..<width).map { UInt8($0 & 255) }
        let cr = (0..<width).map { UInt8($0 >> 8) }
        for lumaValue: UInt8 in [0, 1, 77, 128, 200, 254, 255] {
            let y = [UInt8](repeating: lumaValue, count: width)
            var output = [UInt8](repeating: 0, count: 3 * width)
            y.withUnsafeBufferPointer { yy in
                cb.withUnsafeBufferPointer { bb in
                    cr.withUnsafeBufferPointer { rr in
                        output.withUnsafeMutableBufferPointer { out in
                            RowColorConverter.yCbCrToRGB(yy.baseAddress!, bb.baseAddress!, rr.baseAddress!,
                                                         into: out.baseAddress!, width: width)
                        }
                    }
                }
            }
            var mismatches = 0
            for x in 0..<width {
                let (r, g, b) = RowColorConverter.yccPixel(lumaValue, cb[x], cr[x], tables)
                if output[3 * x] != r || output[3 * x + 1] != g || output[3 * x + 2] != b { mismatches += 1 }
            }
            XCTAssertEqual(mismatches, 0, "Y = \(lumaValue)")
        }
    }

    func testBothGreenSumsGiveTheTablesUnclampedValuesForEveryChromaPair() {
        // rgb(luma:blue:cr:green:) before clamping, eight pixels a call, against Y + table terms.
        let tables = YCbCrTables.shared
        for method in [PairedYCbCrConverter.GreenSum.multiplyAdd, .halves] {
            var mismatches = 0, pixels = 0
            for lumaValue: Int16 in [0, 77, 255] {
                for cr in 0..<256 {
                    for cbStart in stride(from: 0, to: 256, by: 8) {
                        let cbs = (0..<8).map { cbStart + $0 }
                        let blue = PairedYCbCrConverter.Row(cbs.map { Int16($0 - 128) })
                        let (r, g, b) = PairedYCbCrConverter.rgb(luma: .init(repeating: lumaValue), blue: blue,
                                                                 cr: .init(repeating: Int16(cr)), green: method)
                        for lane in 0..<8 {
                            let y = Int32(lumaValue), cb = cbs[lane]
                            let green = y + ((tables.cbToG[cb] + tables.crToG[cr]) >> YCbCrTables.scaleBits)
                            if Int32(r[lane]) != y + tables.crToR[cr] || Int32(g[lane]) != green
                                || Int32(b[lane]) != y + tables.cbToB[cb] { mismatches += 1 }
                            pixels += 1
                        }
                    }
                }
            }
            XCTAssertEqual(pixels, 3 * 65536)
            XCTAssertEqual(mismatches, 0, "\(method)")
        }
    }

    /// Runs `convert` on rows `y`, `cb`, `cr` and returns the RGB bytes.
    private func converted(_ y: [UInt8], _ cb: [UInt8], _ cr: [UInt8],
                           _ convert: (UnsafePointer<UInt8>, UnsafePointer<UInt8>, UnsafePointer<UInt8>,
                                       UnsafeMutablePointer<UInt8>, Int) -> Void) -> [UInt8] {
        var output = [UInt8](repeating: 0xAA, count: 3 * y.count + 1)
        y.withUnsafeBufferPointer { yy in
            cb.withUnsafeBufferPointer { bb in
                cr.withUnsafeBufferPointer { rr in
                    output.withUnsafeMutableBufferPointer { out in
                        convert(yy.baseAddress!, bb.baseAddress!, rr.baseAddress!, out.baseAddress!, y.count)
                    }
                }
            }
        }
        return output
    }

    func testPairedConverterEqualsTheScalarTwinForEveryChromaPairAndLuma() {
        let width = 256 * 256
        let cb = (0..<width).map { UInt8($0 & 255) }
        let cr = (0..<width).map { UInt8($0 >> 8) }
        for lumaValue: UInt8 in [0, 1, 77, 128, 200, 254, 255] {
            let y = [UInt8](repeating: lumaValue, count: width)
            let fast = converted(y, cb, cr) { PairedYCbCrConverter.convert($0, $1, $2, into: $3, width: $4) }
            let careful = converted(y, cb, cr) { RowColorConverter.yCbCrToRGB($0, $1, $2, into: $3, width: $4) }
            XCTAssertEqual(fast, careful, "Y = \(lumaValue)")
        }
    }

    func testPairedConverterEqualsTheScalarTwinAtEveryWidthAndWritesNoFurther() {
        var generator = SystemRandomNumberGenerator()
        for width in 1...80 {
            let y = (0..<width).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let cb = (0..<width).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let cr = (0..<width).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let fast = converted(y, cb, cr) { PairedYCbCrConverter.convert($0, $1, $2, into: $3, width: $4) }
            let careful = converted(y, cb, cr) { RowColorConverter.yCbCrToRGB($0, $1, $2, into: $3, width: $4) }
            XCTAssertEqual(fast, careful, "width \(width)")
            XCTAssertEqual(fast.last, 0xAA, "width \(width): the byte after the row was written")
        }
    }

    func testCMYKToRGBRoundsTheProductOverK() {
        // round(C·K / 255): 255·255 → 255, 128·255 → 128, 100·100 / 255 = 39.2 → 39, 200·150 / 255 = 117.6 → 118.
        XCTAssertEqual(RowColorConverter.scaleByK(255, 255), 255)
        XCTAssertEqual(RowColorConverter.scaleByK(128, 255), 128)
        XCTAssertEqual(RowColorConverter.scaleByK(100, 100), 39)
        XCTAssertEqual(RowColorConverter.scaleByK(200, 150), 118)
        XCTAssertEqual(RowColorConverter.scaleByK(0, 200), 0)
    }
}
