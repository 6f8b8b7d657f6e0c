import XCTest
import ImageCore
import JPEGCodec
import TestSupport

/// Previews of incomplete progressive data are block-smoothed as libjpeg-turbo does (see JPEGSmoothingReferenceTests for exact references).
final class JPEGProgressiveSmoothingTests: XCTestCase {
    /// The pixels of a binary PPM ("P6\n<w> <h>\n255\n" then RGB).
    private func ppmPixels(_ bytes: [UInt8]) -> [UInt8] {
        var newlines = 0, index = 0
        while index < bytes.count && newlines < 3 {
            if bytes[index] == 0x0A { newlines += 1 }
            index += 1
        }
        return Array(bytes[index...])
    }

    func testTruncatedFileIsCloseToDjpegsSmoothedPicture() throws {
        let path = "jpeg/malformed/synth_progressive_truncated_50pct.jpg"
        let decoder = JPEGDecoder()
        try decoder.feed(try JPEGCorpus.bytes(path))
        XCTAssertThrowsError(try decoder.finish()) { XCTAssertEqual(($0 as? ImageDecodingError)?.kind, .truncated) }
        let image = try XCTUnwrap(decoder.currentImage())
        let reference = ppmPixels(try Fixtures.bytes("jpeg-extra/djpeg_smoothed_synth_progressive_truncated_50pct.ppm"))
        XCTAssertEqual(reference.count, image.pixels.count)
        let referenceImage = Image(width: image.width, height: image.height, format: .rgb8, pixels: reference)
        // This PPM is djpeg 2.1.5's, whose 5×5 smoothing of 4:2:0 pictures differs from 3.x's (which we match) in a few rows.
        XCTAssertGreaterThan(JPEGScanBoundaries.psnr(image, referenceImage), 40)
    }

    func testCompleteFilesAreNotSmoothed() throws {
        // Smoothing stops once coefficients 0...5 are exact: the final picture is djpeg's exactly.
        let entry = try JPEGCorpus.entry("jpeg/generated/synth_progressive_succ_approx.jpg")
        let image = try JPEGDecoder().decode(try CorpusManifest.bytes(of: entry))
        XCTAssertEqual(Digest.sha256(image.pixels), entry.reference?.sha256)
    }
}
