import ImageCore
import TestSupport
import WebPCodec
import XCTest

/// Lossy files (qualities 0–100, noise shaping, filter strength, simple and normal loop filter,
/// sharpness, 1–4 segments, odd sizes, 1×1) and lossy files with ALPH (raw and lossless, each
/// filter) decode to dwebp's default output: fancy upsampling, libwebp's YUV→RGB.
final class LossyConformanceTests: XCTestCase {
    func testReferencesArePresent() {
        XCTAssertGreaterThanOrEqual(WebPFixtures.names("lossy").count, 20)
        XCTAssertGreaterThanOrEqual(WebPFixtures.names("alpha").count, 9)
    }

    func testEveryLossyFileMatchesDwebp() throws {
        for name in WebPFixtures.names("lossy") {
            do {
                WebPFixtures.assertMatches(try WebPFixtures.decode(try WebPFixtures.bytes(name)), name)
            } catch {
                XCTFail("\(name): \(error)")
            }
        }
    }

    func testEveryFileWithAlphaMatchesDwebp() throws {
        for name in WebPFixtures.names("alpha", "meta_icc_alpha") {
            do {
                let image = try WebPFixtures.decode(try WebPFixtures.bytes(name))
                XCTAssertEqual(image.format, .rgba8, name)
                WebPFixtures.assertMatches(image, name)
            } catch {
                XCTFail("\(name): \(error)")
            }
        }
    }

    func testMacroblockRowsAppearAsTheyDecode() throws {
        let name = "lossy_large.webp"  // 200×150: 10 macroblock rows
        let bytes = try WebPFixtures.bytes(name)
        let full = try WebPFixtures.decode(bytes)
        let decoder = WebPDecoder()
        var seenRows = Set<Int>()
        for piece in Chunking.fixed(bytes, size: 256) {
            try decoder.feed(piece)
            let rows = decoder.status.progress?.completedRows ?? 0
            seenRows.insert(rows)
            if rows > 0, rows < full.height {
                XCTAssertEqual(rows % 16, 8, "rows end 8 above a macroblock boundary (the next row's filter reaches up)")
                let partial = try XCTUnwrap(decoder.currentImage())
                let rowBytes = full.bytesPerRow
                XCTAssertEqual(partial.pixels[..<(rows * rowBytes)], full.pixels[..<(rows * rowBytes)], "rows shown are final")
            }
        }
        XCTAssertEqual(try decoder.finish(), full)
        XCTAssertGreaterThanOrEqual(seenRows.count, 8, "most macroblock rows show on their own")
    }
}
