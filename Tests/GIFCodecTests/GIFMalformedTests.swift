import GIFCodec
import ImageCore
import TestSupport
import XCTest

/// Broken files: clean errors with the byte offset, or what browsers show, and earlier frames kept.
final class GIFMalformedTests: XCTestCase {
    private typealias Build = TestGIFBuilder

    private func expectError(_ kind: ImageDecodingError.Kind, at offset: Int?, file: StaticString = #filePath, line: UInt = #line,
                             _ body: () throws -> Void) {
        XCTAssertThrowsError(try body(), file: file, line: line) { error in
            XCTAssertEqual((error as? ImageDecodingError)?.kind, kind, "\(error)", file: file, line: line)
            XCTAssertEqual((error as? ImageDecodingError)?.offset, offset, "\(error)", file: file, line: line)
        }
    }

    /// Clear code (4), then code 7 while the next free code is 5: 3-bit codes `100`, `111` → 0x3C.
    private let badCodeData: [UInt8] = [0x3C]

    func testACodeAboveTheNextFreeCodeIsInvalidDataAtItsByte() throws {
        let head = Build.header(width: 4, height: 2)
        let bytes = head + Build.image(width: 4, height: 2, data: badCodeData) + Build.trailer
        let dataOffset = head.count + 10 + 1 + 1   // descriptor, code size byte, sub-block length
        let decoder = GIFDecoder()
        expectError(.invalidData, at: dataOffset) { try decoder.feed(bytes) }
        // Sticky everywhere; the picture stays whole.
        expectError(.invalidData, at: dataOffset) { try decoder.feed([0]) }
        expectError(.invalidData, at: dataOffset) { _ = try decoder.finish() }
        expectError(.invalidData, at: dataOffset) { _ = try decoder.nextFrame() }
        XCTAssertEqual(decoder.currentImage()?.pixels.count, 4 * 2 * 4)
    }

    func testRowsBeforeABadCodeStay() throws {
        // Literal codes for row 0 (4 pixels, indices 0 1 2 3), then a code far past the table.
        var writer = Build.BitWriter()
        writer.put(4, 3)
        for index in [0, 1, 2] { writer.put(index, 3) }
        writer.put(3, 4)    // the next free code reached 8 after the third literal: codes are 4 bits wide
        writer.put(15, 4)   // 15 > the next free code (9)
        let bytes = Build.header(width: 4, height: 2) + Build.image(width: 4, height: 2, data: writer.flush()) + Build.trailer
        let decoder = GIFDecoder()
        XCTAssertThrowsError(try decoder.feed(bytes))
        let picture = try XCTUnwrap(decoder.currentImage())
        XCTAssertEqual(Array(picture.pixels[0..<16]), [200, 30, 30, 255, 30, 200, 30, 255, 30, 30, 200, 255, 240, 240, 40, 255])
        XCTAssertEqual(Array(picture.pixels[16...]), [UInt8](repeating: 0, count: 16))
    }

    func testABadCodeInALaterFrameKeepsTheEarlierFrames() throws {
        let good = Build.literalLZW([0, 1, 2, 3, 3, 2, 1, 0])
        let head = Build.header(width: 4, height: 2)
        let frame0 = Build.control(delay: 5) + Build.image(width: 4, height: 2, data: good)
        let frame1 = Build.control(delay: 6) + Build.image(x: 1, y: 1, width: 2, height: 1, data: Build.literalLZW([2, 2]))
        let frame2Start = head.count + frame0.count + frame1.count + Build.control().count
        let bytes = head + frame0 + frame1 + Build.control() + Build.image(width: 4, height: 2, data: badCodeData) + Build.trailer
        let decoder = GIFDecoder()
        try decoder.feed(bytes)
        // The default image is the first frame; later frames are decoded when pulled.
        let still = try decoder.finish()
        let first = try XCTUnwrap(decoder.nextFrame())
        let second = try XCTUnwrap(decoder.nextFrame())
        XCTAssertEqual(first.image, still)
        XCTAssertEqual(second.duration, 0.06)
        expectError(.invalidData, at: frame2Start + 12) { _ = try decoder.nextFrame() }
        expectError(.invalidData, at: frame2Start + 12) { _ = try decoder.nextFrame() }
        XCTAssertEqual(decoder.currentImage(), still)
    }

    func testMinimumCodeSizeAbove11IsInvalidDataAtThatByte() {
        let head = Build.header(width: 2, height: 2)
        let bytes = head + Build.image(width: 2, height: 2, minimumCodeSize: 12, data: [0]) + Build.trailer
        expectError(.invalidData, at: head.count + 10) { try GIFDecoder().feed(bytes) }
    }

    func testAnImageWithoutDataSubBlocksDrawsNothing() throws {
        let bytes = Build.header(width: 3, height: 2) + Build.image(width: 3, height: 2, data: []) + Build.trailer
        let decoder = GIFDecoder()
        XCTAssertEqual(try decoder.decode(bytes).pixels, [UInt8](repeating: 0, count: 24))
        XCTAssertEqual(try decoder.nextFrame()?.index, 0)
    }

    func testIndicesPastTheTableAreOpaqueBlackAndTheTransparentOneStaysTransparent() throws {
        // A 4-entry table; indices 0...7 (3-bit literals), index 5 (past the table) the transparent one.
        let indices = [0, 1, 2, 3, 4, 5, 6, 7]
        let bytes = Build.header(width: 8, height: 1) + Build.control(transparent: 5)
            + Build.image(width: 8, height: 1, minimumCodeSize: 3, data: Build.literalLZW(indices, minimumCodeSize: 3)) + Build.trailer
        let pixels = try GIFDecoder().decode(bytes).pixels
        let table = Build.palette
        var expected: [UInt8] = []
        for index in indices {
            expected += index == 5 ? [0, 0, 0, 0] : index < 4 ? Array(table[3 * index..<3 * index + 3]) + [255] : [0, 0, 0, 255]
        }
        XCTAssertEqual(pixels, expected)
        // No colour table anywhere: every pixel opaque black (Wuffs' default palette).
        let bare = Build.header(width: 4, height: 1, palette: nil)
            + Build.image(width: 4, height: 1, data: Build.literalLZW([0, 1, 2, 3])) + Build.trailer
        XCTAssertEqual(try GIFDecoder().decode(bare).pixels, Array([[UInt8]](repeating: [0, 0, 0, 255], count: 4).joined()))
    }

    func testAFileEndingAfterTheCodeSizeIsTruncatedAtItsEnd() {
        let bytes = Array((Build.header(width: 3, height: 2) + Build.image(width: 3, height: 2, data: [])).dropLast())
        let decoder = GIFDecoder()
        XCTAssertNoThrow(try decoder.feed(bytes))
        expectError(.truncated, at: bytes.count) { _ = try decoder.finish() }
        XCTAssertEqual(decoder.currentImage()?.width, 3)
    }

    func testZeroSizeFramesAreEmptyFramesWithTheirDelay() throws {
        let outcome = decodeGIF([gifFixture("zero_size_frame.gif")[...]])
        XCTAssertNil(outcome.error)
        XCTAssertEqual(outcome.frames.map(\.region.width), [7, 0, 4, 3])
        XCTAssertEqual(outcome.frames.map(\.region.height), [6, 0, 0, 3])
        XCTAssertEqual(outcome.frames.map(\.duration), [0.1, 0.2, 0.3, 0.4])
        XCTAssertEqual(outcome.frames[1].regionImage.pixels, [])
        // An empty frame changes nothing: disposal 2 of a 0×0 rectangle clears nothing.
        XCTAssertEqual(outcome.frames[1].image, outcome.frames[0].image)
        XCTAssertEqual(outcome.frames[2].image, outcome.frames[0].image)
    }

    func testACanvasOverTheLimitsIsRejectedFromTheHeader() {
        let big = Build.header(width: 65535, height: 65535)
        expectError(.limitExceeded, at: 6) { try GIFDecoder().feed(big) }
        let wide = Build.header(width: 5000, height: 1)
        expectError(.limitExceeded, at: 6) {
            try GIFDecoder(options: DecodingOptions(limits: Limits(maxDimension: 4096))).feed(wide)
        }
        expectError(.invalidData, at: 6) { try GIFDecoder().feed(Build.header(width: 0, height: 5)) }
    }

    func testASignatureOtherThanGIF87aOrGIF89aIsInvalid() {
        expectError(.invalidSignature, at: 4) { try GIFDecoder().feed(Array("GIF88a".utf8)) }
        expectError(.invalidSignature, at: 5) { try GIFDecoder().feed(Array("GIF89b".utf8)) }
        expectError(.invalidSignature, at: 0) { try GIFDecoder().feed([0x89, 0x50]) }
    }

    func testAByteThatStartsNoBlockEndsTheFileWithAWarning() throws {
        let head = Build.header(width: 2, height: 1)
        let image = Build.image(width: 2, height: 1, data: Build.literalLZW([1, 2]))
        let bytes = head + image + [0x99, 1, 2, 3] + image
        let decoder = GIFDecoder()
        try decoder.feed(bytes)
        XCTAssertTrue(decoder.status.isComplete)
        XCTAssertEqual(try decoder.finish().pixels, [30, 200, 30, 255, 30, 30, 200, 255])
        XCTAssertEqual(decoder.warnings.map(\.offset), [head.count + image.count])
        XCTAssertEqual(decoder.warnings.map(\.kind), [.invalidData])
        XCTAssertNotNil(try decoder.nextFrame())
        XCTAssertNil(try decoder.nextFrame())
    }

    func testAShortGraphicControlExtensionIsIgnoredWithAWarning() throws {
        let head = Build.header(width: 2, height: 1)
        let shortControl: [UInt8] = [0x21, 0xF9, 2, 0x09, 0x05, 0]
        let bytes = head + shortControl + Build.image(width: 2, height: 1, data: Build.literalLZW([0, 3])) + Build.trailer
        let decoder = GIFDecoder()
        XCTAssertEqual(try decoder.decode(bytes).pixels, [200, 30, 30, 255, 240, 240, 40, 255])
        XCTAssertEqual(decoder.warnings.map(\.offset), [head.count + 2])
        XCTAssertEqual(try decoder.nextFrame()?.disposal, FrameDisposal.none)
    }

    func testATrailerWithoutAnImageIsInvalidData() {
        let bytes = Build.header(width: 2, height: 2) + Build.trailer
        let decoder = GIFDecoder()
        XCTAssertNoThrow(try decoder.feed(bytes))
        expectError(.invalidData, at: bytes.count) { _ = try decoder.finish() }
        XCTAssertNil(try decoder.nextFrame())
    }

    func testAHeaderWithoutAnImageIsTruncated() {
        let bytes = Build.header(width: 2, height: 2)
        let decoder = GIFDecoder()
        XCTAssertNoThrow(try decoder.feed(bytes))
        expectError(.truncated, at: bytes.count) { _ = try decoder.finish() }
        XCTAssertEqual(decoder.currentImage()?.pixels, [UInt8](repeating: 0, count: 16))
    }

    /// Seeded byte flips and cuts over every fixture: never a trap, never `internal`, and the
    /// same frames and error for two chunkings.
    func testMutatedFilesFailCleanlyTheSameWayForAnyChunking() {
        var random = SeededGenerator(seed: 15)
        for name in GIFReference.names {
            let original = gifFixture(name)
            for _ in 0..<12 {
                var bytes = original
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    let position = Int.random(in: 0..<bytes.count, using: &random)
                    bytes[position] = UInt8.random(in: 0...255, using: &random)
                }
                let whole = decodeGIF([bytes[...]], options: DecodingOptions(limits: Limits(maxPixels: 1 << 20)))
                let pieces = decodeGIF(Chunking.random(bytes, seed: random.next(), maxSize: 50),
                                       options: DecodingOptions(limits: Limits(maxPixels: 1 << 20)))
                XCTAssertNotEqual(whole.error?.kind, .internal, name)
                XCTAssertEqual(whole.error?.kind, pieces.error?.kind, name)
                XCTAssertEqual(whole.frames.count, pieces.frames.count, name)
                XCTAssertTrue(whole.frames == pieces.frames, name)
            }
        }
    }
}

extension GIFMalformedTests {
    func testBytesAfterTheTrailerAreIgnored() throws {
        let bytes = gifFixture("gif87a.gif")
        let decoder = GIFDecoder()
        try decoder.feed(bytes)
        let examined = decoder.inputBytesExamined
        try decoder.feed([UInt8](repeating: 0x2C, count: 5000))
        XCTAssertEqual(decoder.inputBytesExamined, examined)
        XCTAssertEqual(Digest.sha256(try decoder.finish().pixels), GIFReference.all["gif87a.gif"]?.frames.first?.sha256)
        XCTAssertNotNil(try decoder.nextFrame())
        XCTAssertNil(try decoder.nextFrame())
    }
}

extension GIFMalformedTests {
    /// A bad code deep in a long data sub-block (where 8 bytes are read at a time) is reported at
    /// the byte holding its last bit, however the data is split.
    func testABadCodeIsReportedAtTheSameByteForEveryChunking() throws {
        // 40 literals at 3 then 4 ... bits, then code 15 > the next free code; all in one sub-block.
        var writer = TestGIFBuilder.BitWriter()
        var width = 3, next = 5
        writer.put(4, width)
        for k in 0..<40 {
            writer.put(k % 4, width)
            next += 1
            if next >= 1 << width { width += 1 }
        }
        writer.put(63, width)   // width 6 now; 63 > next (46)
        let data = writer.flush() + [UInt8](repeating: 0xAA, count: 20)
        let head = TestGIFBuilder.header(width: 8, height: 8)
        let bytes = head + TestGIFBuilder.image(width: 8, height: 8, data: data) + TestGIFBuilder.trailer
        let start = head.count + 12   // first data byte
        // Bit position of the bad code's last bit: 3 (clear) + literal widths + 6 - 1.
        var bit = 3, w = 3, n = 5
        for _ in 0..<40 { bit += w; n += 1; if n >= 1 << w { w += 1 } }
        let expected = start + (bit + w - 1) / 8
        for pieces in [[bytes[...]], Chunking.fixed(bytes, size: 1), Chunking.fixed(bytes, size: 13)] {
            XCTAssertEqual(decodeGIF(pieces).error?.offset, expected)
            XCTAssertEqual(decodeGIF(pieces).error?.kind, .invalidData)
        }
    }
}
