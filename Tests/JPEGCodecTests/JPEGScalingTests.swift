import XCTest
import ImageCore
import JPEGCodec
import TestSupport

/// DCT-domain scaling matches `djpeg -scale 1/N`.
final class JPEGScalingTests: XCTestCase {
    func testUpstreamScaledMD5sOfTestorigReproduce() throws {
        // libjpeg-turbo CMakeLists.txt: djpeg -dct int -scale 1/N -nosmooth -ppm testorig.jpg. With 4:2:0
        // at these scales the chroma IDCT is scaled up instead of upsampled, so -nosmooth changes nothing.
        let bytes = try JPEGCorpus.bytes("jpeg/libjpeg-turbo/testorig.jpg")
        let expected: [(ScaleFactor, String, Int, Int)] = [
            (.half, "e692a315cea26b988c8e8b29a5dbcd81", 114, 75),
            (.quarter, "79cd778f8bf1a117690052cacdd54eca", 57, 38),
            (.eighth, "391b3d4aca640c8567d6f8745eb2142f", 29, 19),
        ]
        for (scale, md5, width, height) in expected {
            let image = try JPEGDecoder(options: DecodingOptions(scale: scale)).decode(bytes)
            XCTAssertEqual(image.width, width)
            XCTAssertEqual(image.height, height)
            XCTAssertEqual(Digest.md5(JPEGCorpusConformanceTests.ppm(image)), md5, "scale 1/\(scale.denominator)")
        }
    }

    func testEverySequentialFileMatchesDjpegAtHalfQuarterAndEighthScale() throws {
        let references = try ExtraJPEGReferences.load().scaled
        XCTAssertEqual(references.count, 81 * 3)
        let failures = try JPEGReferenceChecks.scaledMismatches(references, bytes: JPEGCorpus.bytes)
        XCTAssertEqual(failures, [])
    }

    func testHeaderReportsTheScaledSizeRoundedUp() throws {
        let bytes = try JPEGCorpus.bytes("jpeg/generated/odd_17x33_420.jpg")
        let decoder = JPEGDecoder(options: DecodingOptions(scale: .quarter))
        try decoder.feed(bytes)
        XCTAssertEqual(decoder.header?.width, 5)    // ceil(17 / 4)
        XCTAssertEqual(decoder.header?.height, 9)   // ceil(33 / 4)
    }
}
