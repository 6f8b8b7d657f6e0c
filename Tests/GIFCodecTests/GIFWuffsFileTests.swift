import GIFCodec
import ImageCore
import TestSupport
import XCTest

/// Wuffs' test files that giflib cannot read, so `references.json` has no frames for them
/// (the others are in the reference comparison). Their `.make-artificial.txt` files say what they hold.
final class GIFWuffsFileTests: XCTestCase {
    private let transparent2x2 = [UInt8](repeating: 0, count: 16)

    func testNoFramesIsInvalidDataAtTheEnd() throws {
        let bytes = gifFixture("wuffs/no-frames.gif")
        let decoder = GIFDecoder()
        try decoder.feed(bytes)
        XCTAssertThrowsError(try decoder.finish()) { error in
            XCTAssertEqual((error as? ImageDecodingError)?.kind, .invalidData)
            XCTAssertEqual((error as? ImageDecodingError)?.offset, bytes.count)
        }
        XCTAssertNil(try decoder.nextFrame())
    }

    func testAFrameWhoseDataEndsAtOnceStaysTransparent() throws {
        let decoder = GIFDecoder()
        XCTAssertEqual(try decoder.decode(gifFixture("wuffs/pixel-data-none.gif")).pixels, transparent2x2)
        XCTAssertEqual(try decoder.nextFrame()?.region, FrameRegion(x: 0, y: 0, width: 2, height: 2))
    }

    func testAFrameWithOnePixelOfFourDrawsThatPixel() throws {
        let image = try GIFDecoder().decode(gifFixture("wuffs/pixel-data-not-enough.gif"))
        XCTAssertEqual(image.pixels, [0, 0, 255, 255] + [UInt8](repeating: 0, count: 12))
    }

    func testAZeroWidthFrameWithPixelDataDrawsNothing() throws {
        let decoder = GIFDecoder()
        XCTAssertEqual(try decoder.decode(gifFixture("wuffs/zero-width-frame.gif")).pixels, transparent2x2)
        let frame = try XCTUnwrap(decoder.nextFrame())
        XCTAssertEqual(frame.region.width, 0)
        XCTAssertEqual(frame.regionImage.pixels, [])
    }

    func testATruncatedInterlacedFileKeepsAWholeSharperPreview() throws {
        let full = try GIFDecoder().decode(gifFixture("wuffs/hippopotamus.interlaced.gif"))
        XCTAssertTrue(stride(from: 3, to: full.pixels.count, by: 4).allSatisfy { full.pixels[$0] == 255 }, "an opaque picture")
        let bytes = gifFixture("wuffs/hippopotamus.interlaced.truncated.gif")
        let decoder = GIFDecoder()
        try decoder.feed(bytes)
        XCTAssertThrowsError(try decoder.finish()) { error in
            XCTAssertEqual((error as? ImageDecodingError)?.kind, .truncated)
            XCTAssertEqual((error as? ImageDecodingError)?.offset, bytes.count)
        }
        XCTAssertGreaterThanOrEqual(decoder.status.progress?.completedScans ?? 0, 1)
        // Every row is filled from the nearest decoded row above: no transparent pixel is left.
        let preview = try XCTUnwrap(decoder.currentImage())
        XCTAssertTrue(stride(from: 3, to: preview.pixels.count, by: 4).allSatisfy { preview.pixels[$0] == 255 })
        XCTAssertNotEqual(preview, full)
    }

    func testTheLastLoopCountWins() throws {
        let decoder = GIFDecoder()
        try decoder.feed(gifFixture("wuffs/multiple-loop-counts.gif"))
        XCTAssertEqual(decoder.animation?.loopCount, 41)   // stored 40 = 40 repetitions after the first play
    }
}
