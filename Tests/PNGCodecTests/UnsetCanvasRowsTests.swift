import XCTest
import ImageCore
import PNGCodec
import TestSupport

/// A non-interlaced PNG's canvas is not zeroed up front (``PixelCanvas``): the rows not yet
/// written are zeroed when a picture is first taken. No picture may ever show bytes the decoder
/// did not write, whatever the allocation held before.
final class UnsetCanvasRowsTests: XCTestCase {
    /// A 96×80 rgba8 picture of noise (opaque), as a non-interlaced PNG.
    private func noisePNG() -> (png: [UInt8], pixels: [UInt8]) {
        var rng = SeededGenerator(seed: 0xCA17A5)
        var pixels = [UInt8](repeating: 0, count: 96 * 80 * 4)
        for index in pixels.indices { pixels[index] = index % 4 == 3 ? 255 : UInt8.random(in: 0...255, using: &rng) }
        let image = Image(width: 96, height: 80, format: .rgba8, pixels: pixels)
        return (PNGEncoder(compressionLevel: 1).encode(image), pixels)
    }

    /// Leaves freed blocks full of 0xEE where a canvas of this size is likely to be allocated
    /// next, so a canvas that skipped zeroing would show them.
    private func dirtyTheAllocator() {
        var blocks: [[UInt8]] = []
        for _ in 0..<8 { blocks.append([UInt8](repeating: 0xEE, count: 96 * 80 * 4)) }
        XCTAssertEqual(blocks.count, 8)
    }

    func testRowsNotYetDecodedAreZeroInEveryPreviewAndCutPicture() throws {
        let (png, pixels) = noisePNG()
        let rowBytes = 96 * 4
        var checkedPartial = 0
        for cut in stride(from: png.count / 5, to: png.count - 12, by: png.count / 7) {
            dirtyTheAllocator()
            let decoder = PNGDecoder()
            var previews: [(rows: Int, image: Image)] = []
            for piece in Chunking.fixed(Array(png[0..<cut]), size: 509) {
                let status = try piece.withUnsafeBytes { try decoder.feed($0) }
                if let image = decoder.currentImage() { previews.append((status.progress?.completedRows ?? 0, image)) }
            }
            XCTAssertThrowsError(try decoder.finish())
            if let cutImage = decoder.currentImage() { previews.append((-1, cutImage)) }
            for (rows, image) in previews {
                // The rows decoded equal the source; everything after them is zero.
                var decoded = 0
                while decoded < 80 {
                    let range = (decoded * rowBytes)..<((decoded + 1) * rowBytes)
                    if image.pixels[range] != pixels[range] { break }
                    decoded += 1
                }
                if rows >= 0 { XCTAssertEqual(decoded, rows, "cut \(cut)") }
                XCTAssertTrue(image.pixels[(decoded * rowBytes)...].allSatisfy { $0 == 0 }, "cut \(cut): rows after \(decoded) are not zero")
                if decoded > 0 && decoded < 80 { checkedPartial += 1 }
            }
        }
        // Pictures with some rows and not all were seen (else the test checks nothing).
        XCTAssertGreaterThan(checkedPartial, 5)
    }

    func testAWholeDecodeWritesEveryRow() throws {
        let (png, pixels) = noisePNG()
        dirtyTheAllocator()
        XCTAssertEqual(try PNGDecoder().decode(png).pixels, pixels)
        dirtyTheAllocator()
        let decoder = PNGDecoder()
        for piece in Chunking.fixed(png, size: 1) { _ = try piece.withUnsafeBytes { try decoder.feed($0) } }
        XCTAssertEqual(try decoder.finish().pixels, pixels)
    }
}
