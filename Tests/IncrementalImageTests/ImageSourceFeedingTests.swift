import Foundation
import IncrementalImage
import TestSupport
import XCTest

/// Feeding through the source: any chunking gives the same result, and the decoder sees each byte once.
final class ImageSourceFeedingTests: XCTestCase {
    private let registry = ImageDecoderRegistry.standard.adding(ImageDecoderFactory(
        formatName: "TST1", signature: FakeRowDecoder.signature, supportsScaling: true) { FakeRowDecoder(options: $0) })

    func testOneByteAtATimeMatchesTheWholeFileAndExaminesEachByteOnce() throws {
        let bytes = FakeImageFile.bytes(width: 13, height: 7, seed: 3)
        let source = ImageSource(registry: registry)
        for byte in bytes { try source.feed([byte]) }
        XCTAssertEqual(source.formatName, "TST1")
        XCTAssertEqual(try source.finish(), FakeImageFile.image(width: 13, height: 7, seed: 3))
        XCTAssertEqual(source.inputBytesExamined, bytes.count)
    }

    func testRandomChunksMatchTheWholeFile() throws {
        let bytes = FakeImageFile.bytes(width: 40, height: 9, seed: 5)
        for seed in UInt64(1)...5 {
            let source = ImageSource(registry: registry)
            for piece in Chunking.random(bytes, seed: seed, maxSize: 23) { try source.feed(piece) }
            XCTAssertEqual(try source.finish(), FakeImageFile.image(width: 40, height: 9, seed: 5), "seed \(seed)")
        }
    }

    func testStatusHeaderAndPreviewFollowTheDecoder() throws {
        let bytes = FakeImageFile.bytes(width: 4, height: 3, seed: 1)
        let source = ImageSource(registry: registry)
        XCTAssertEqual(source.status, .awaitingHeader)
        XCTAssertNil(source.currentImage())
        let status = try source.feed(bytes[0..<(8 + 4 + 2)])
        XCTAssertEqual(status.progress?.completedRows, 1)
        XCTAssertEqual(source.header?.width, 4)
        XCTAssertEqual(source.header?.height, 3)
        let preview = try XCTUnwrap(source.currentImage())
        XCTAssertEqual(Array(preview.pixels[0..<4]), Array(bytes[8..<12]))
        XCTAssertEqual(Array(preview.pixels[4...]), [UInt8](repeating: 0, count: 8))
    }

    func testFeedingDataEqualsFeedingBytes() throws {
        let bytes = FakeImageFile.bytes(width: 5, height: 5, seed: 9)
        let source = ImageSource(registry: registry)
        try source.feed(Data(bytes))
        XCTAssertEqual(try source.finish(), FakeImageFile.image(width: 5, height: 5, seed: 9))
    }

    func testTruncatedInputThrowsTruncatedAndKeepsThePartialImage() throws {
        let bytes = FakeImageFile.bytes(width: 4, height: 4, seed: 2)
        let source = ImageSource(registry: registry)
        try source.feed(bytes[0..<(8 + 4 * 2)])
        XCTAssertThrowsError(try source.finish()) { error in
            XCTAssertEqual((error as? ImageDecodingError)?.kind, .truncated)
        }
        XCTAssertEqual(source.currentImage()?.pixels.prefix(8).map { $0 }, Array(bytes[8..<16]))
    }

    func testOneShotDecodeOfBytesAndData() throws {
        let bytes = FakeImageFile.bytes(width: 6, height: 2, seed: 4)
        let expected = FakeImageFile.image(width: 6, height: 2, seed: 4)
        XCTAssertEqual(try ImageSource.decode(bytes, registry: registry), expected)
        XCTAssertEqual(try ImageSource.decode(Data(bytes), registry: registry), expected)
    }

    func testDecodeContentsOfFileReadsTheWholeFile() throws {
        // Larger than one read chunk (256 KiB) so the chunked file reading is exercised.
        let bytes = FakeImageFile.bytes(width: 700, height: 500, seed: 6)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("imagesource-\(UUID().uuidString).tst")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        XCTAssertEqual(try ImageSource.decode(contentsOf: url, registry: registry), FakeImageFile.image(width: 700, height: 500, seed: 6))
    }

    func testDecodeContentsOfRejectsNetworkURLs() {
        XCTAssertThrowsError(try ImageSource.decode(contentsOf: URL(string: "http://127.0.0.1/a.png")!)) { error in
            XCTAssertEqual((error as? ImageDecodingError)?.kind, .unsupported)
        }
    }

    func testScaleOptionReachesTheDecoder() throws {
        let bytes = FakeImageFile.bytes(width: 16, height: 9, seed: 7)
        let image = try ImageSource.decode(bytes, options: DecodingOptions(scale: .quarter), registry: registry)
        XCTAssertEqual(image.width, 4)
        XCTAssertEqual(image.height, 3)
        XCTAssertEqual(image.pixels[1], FakeImageFile.sample(x: 4, y: 0, seed: 7))
    }
}
