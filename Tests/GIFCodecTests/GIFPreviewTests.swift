import GIFCodec
import ImageCore
import TestSupport
import XCTest

/// What `currentImage()` shows while the first frame arrives.
final class GIFPreviewTests: XCTestCase {
    /// Rows of a `height`-row interlaced frame decoded once `passes` passes are complete (GIF89a Appendix E).
    private func rowsDecoded(afterPasses passes: Int, height: Int) -> Set<Int> {
        let starts = [0, 4, 2, 1], steps = [8, 8, 4, 2]
        var rows = Set<Int>()
        for pass in 0..<passes { rows.formUnion(stride(from: starts[pass], to: height, by: steps[pass])) }
        return rows
    }

    /// `final` with every row not in `decoded` replaced by the nearest decoded row above it.
    private func filled(_ final: Image, decoded: Set<Int>) -> [UInt8] {
        let rowBytes = final.width * 4
        var pixels = final.pixels
        var source = 0
        for row in 0..<final.height {
            if decoded.contains(row) { source = row }
            pixels.replaceSubrange(row * rowBytes..<(row + 1) * rowBytes, with: final.pixels[source * rowBytes..<(source + 1) * rowBytes])
        }
        return pixels
    }

    func testEachInterlacePassGivesAWholeSharperPicture() throws {
        for name in ["pillow_interlaced.gif", "magick_interlaced_still.gif", "interlaced_literal.gif"] {
            let bytes = gifFixture(name)
            let final = try GIFDecoder().decode(bytes)
            let decoder = GIFDecoder()
            var passesSeen: [Int] = []
            var previous: [UInt8]?
            for byte in bytes {
                try decoder.feed([byte])
                let passes = decoder.status.progress?.completedScans ?? 0
                guard passes > (passesSeen.last ?? 0) else { continue }
                passesSeen.append(passes)
                let picture = try XCTUnwrap(decoder.currentImage())
                XCTAssertTrue(picture.pixels == filled(final, decoded: rowsDecoded(afterPasses: passes, height: final.height)),
                              "\(name) after pass \(passes)")
                XCTAssertFalse(picture.pixels == previous, "\(name): pass \(passes) changed nothing")
                previous = picture.pixels
            }
            XCTAssertEqual(passesSeen, [1, 2, 3, 4], name)
            XCTAssertEqual(decoder.header?.isProgressive, true, name)
            XCTAssertTrue(try decoder.finish() == final, name)
        }
    }

    func testSequentialRowsAppearAsTheyDecode() throws {
        let bytes = gifFixture("pillow_256_colours.gif")
        let final = try GIFDecoder().decode(bytes)
        let decoder = GIFDecoder()
        XCTAssertNil(decoder.currentImage())
        XCTAssertEqual(decoder.status, .awaitingHeader)
        try decoder.feed(bytes[0..<2000])
        XCTAssertEqual(decoder.header?.width, 97)
        XCTAssertEqual(decoder.header?.pixelFormat, .rgba8)
        XCTAssertEqual(decoder.header?.isProgressive, false)
        let rows = try XCTUnwrap(decoder.status.progress?.completedRows)
        XCTAssertGreaterThan(rows, 0)
        let picture = try XCTUnwrap(decoder.currentImage())
        XCTAssertTrue(picture.pixels[0..<rows * 97 * 4] == final.pixels[0..<rows * 97 * 4])
        XCTAssertTrue(picture.pixels[rows * 97 * 4 + 97 * 4..<picture.pixels.count].allSatisfy { $0 == 0 })
        XCTAssertFalse(decoder.status.isComplete)
        try decoder.feed(bytes[2000...])
        XCTAssertTrue(decoder.status.isComplete)
        XCTAssertEqual(decoder.status.progress?.completedRows, 61)
    }

    func testPreviewGenerationMovesExactlyWhenThePictureChanges() throws {
        for name in ["pillow_interlaced.gif", "one_byte_sub_blocks.gif", "disposal_all.gif"] {
            let decoder = GIFDecoder()
            var generation = decoder.status.previewGeneration
            var picture = decoder.currentImage()
            for byte in gifFixture(name) {
                try decoder.feed([byte])
                _ = try decoder.nextFrame()   // pulling later frames never changes the default picture
                let now = decoder.currentImage()
                if decoder.status.previewGeneration == generation {
                    XCTAssertTrue(now == picture, "\(name): the picture changed without a new generation")
                } else {
                    XCTAssertFalse(now == picture, "\(name): a new generation with the same picture")
                }
                generation = decoder.status.previewGeneration
                picture = now
            }
        }
    }

    func testPreferredFormatAppliesToThePictureNotToFrames() throws {
        let decoder = GIFDecoder(options: DecodingOptions(preferredFormat: .rgb8))
        try decoder.feed(gifFixture("disposal_all.gif"))
        XCTAssertEqual(decoder.header?.pixelFormat, .rgb8)
        let image = try decoder.finish()
        XCTAssertEqual(image.format, .rgb8)
        let frame = try XCTUnwrap(decoder.nextFrame())
        XCTAssertEqual(frame.image.format, .rgba8)
        XCTAssertTrue(frame.image.converted(to: .rgb8) == image)
    }
}
