import ImageCore
import TestSupport
import WebPCodec
import XCTest

/// Lossless files (every cwebp `-z` preset, palettes of 2–200 colours, near-lossless, odd sizes,
/// 1×1, alpha with and without `-exact`) decode to dwebp's pixels.
final class LosslessConformanceTests: XCTestCase {
    func testReferencesArePresent() {
        XCTAssertGreaterThanOrEqual(WebPFixtures.names("lossless").count, 40)
    }

    func testEveryLosslessFileMatchesDwebp() throws {
        for name in WebPFixtures.names("lossless") {
            do {
                let image = try WebPFixtures.decode(try WebPFixtures.bytes(name))
                WebPFixtures.assertMatches(image, name)
            } catch {
                XCTFail("\(name): \(error)")
            }
        }
    }

    func testHeaderIsKnownFromTheFirst30Bytes() throws {
        let bytes = try WebPFixtures.bytes("lossless_odd_z6.webp")
        let decoder = WebPDecoder()
        try decoder.feed(Array(bytes[..<25]))  // RIFF (12) + chunk header (8) + VP8L header (5)
        let header = try XCTUnwrap(decoder.header)
        XCTAssertEqual(header.fileFormat, .webp)
        XCTAssertEqual(header.width, 67)
        XCTAssertEqual(header.height, 45)
        XCTAssertEqual(header.pixelFormat, .rgb8)
        XCTAssertEqual(decoder.currentImage()?.pixels.count, 67 * 45 * 3)
    }
}
