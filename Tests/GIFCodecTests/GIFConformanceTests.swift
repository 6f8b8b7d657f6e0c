import GIFCodec
import ImageCore
import TestSupport
import XCTest

/// Every fixture decodes to the reference frames of `make_fixtures.py` (browser compositing).
final class GIFConformanceTests: XCTestCase {
    func testReferencesAreLoaded() {
        XCTAssertGreaterThanOrEqual(GIFReference.all.count, 38)
    }

    func testEveryFrameMatchesTheReference() {
        for name in GIFReference.names {
            guard let reference = GIFReference.all[name] else { continue }
            let bytes = gifFixture(name)
            let outcome = decodeGIF([bytes[...]])
            XCTAssertNil(outcome.error, name)
            XCTAssertEqual(outcome.frames.count, reference.frames.count, name)
            for (frame, expected) in zip(outcome.frames, reference.frames) {
                XCTAssertEqual(Digest.sha256(frame.image.pixels), expected.sha256, "\(name) frame \(frame.index)")
                XCTAssertEqual(frame.image.width, reference.width, name)
                XCTAssertEqual(frame.image.height, reference.height, name)
                XCTAssertEqual(frame.image.format, .rgba8, name)
                XCTAssertEqual(frame.duration, Double(expected.durationCentiseconds) / 100, "\(name) frame \(frame.index)")
                XCTAssertEqual(frame.disposal, expected.disposal, "\(name) frame \(frame.index)")
                XCTAssertEqual(frame.region, expected.region, "\(name) frame \(frame.index)")
                XCTAssertEqual(frame.regionImage.width, expected.region.width, name)
                XCTAssertEqual(frame.regionImage.pixels.count, expected.region.width * expected.region.height * 4, name)
                XCTAssertEqual(frame.blend, .over, name)
            }
            XCTAssertEqual(outcome.frames.map(\.index), Array(0..<outcome.frames.count), name)
            // The default image is the first frame composited on the canvas.
            XCTAssertEqual(outcome.image.map { Digest.sha256($0.pixels) }, reference.frames.first?.sha256, name)
            if reference.frames.count >= 2 {
                XCTAssertEqual(outcome.animation?.loopCount, reference.playCount, name)
                XCTAssertEqual(outcome.animation?.canvasWidth, reference.width, name)
                XCTAssertNil(outcome.animation?.declaredFrameCount, name)
            } else {
                XCTAssertNil(outcome.animation, name)
            }
        }
    }
}
