import Foundation
import IncrementalImage
import TestSupport
import XCTest

/// Format recognition: which bytes pick which decoder, and the errors for everything else.
final class ImageSourceSniffingTests: XCTestCase {
    private let registry = ImageDecoderRegistry.standard.adding(ImageDecoderFactory(
        formatName: "TST1", signature: FakeRowDecoder.signature, supportsScaling: true) { FakeRowDecoder(options: $0) })

    private func expectError(_ kind: ImageDecodingError.Kind, offset: Int?, containing fragments: [String],
                             file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> Void) {
        XCTAssertThrowsError(try body(), file: file, line: line) { error in
            guard let error = error as? ImageDecodingError else { return XCTFail("not an ImageDecodingError: \(error)", file: file, line: line) }
            XCTAssertEqual(error.kind, kind, error.message, file: file, line: line)
            XCTAssertEqual(error.offset, offset, file: file, line: line)
            for fragment in fragments { XCTAssertTrue(error.message.contains(fragment), "\(error.message) lacks \(fragment)", file: file, line: line) }
        }
    }

    func testTIFFInputIsUnsupportedAndNamesTheBytesSeen() {
        let source = ImageSource(registry: registry)
        expectError(.unsupported, offset: 0, containing: ["49 49 2A 00", "TIFF", "PNG (89 50 4E 47 0D 0A 1A 0A)", "JPEG (FF D8)", "GIF (47 49 46 38)"]) {
            try source.feed([0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0])
        }
    }

    func testGIFInputPicksTheGIFDecoder() throws {
        let source = ImageSource(registry: registry)
        // A 1×1 GIF89a: 2-entry global table (red, black), one pixel of index 0.
        let gif: [UInt8] = Array("GIF89a".utf8) + [1, 0, 1, 0, 0x80, 0, 0, 255, 0, 0, 0, 0, 0,
                                                    0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 0x01, 0, 0x3B]
        try source.feed(gif)
        XCTAssertEqual(source.formatName, "GIF")
        XCTAssertEqual(source.header?.fileFormat, .gif)
        XCTAssertEqual(try source.finish().pixels, [255, 0, 0, 255])
        XCTAssertEqual(try source.nextFrame()?.image.pixels, [255, 0, 0, 255])
    }

    func testAGIFSignatureOtherThan87aOr89aIsInvalid() {
        let source = ImageSource(registry: registry)
        expectError(.invalidSignature, offset: 4, containing: ["GIF87a or GIF89a"]) { try source.feed(Array("GIF88a".utf8)) }
    }

    func testRIFFInputThatIsNotWebPIsUnsupported() {
        let source = ImageSource(registry: registry)
        expectError(.unsupported, offset: 0, containing: ["52 49 46 46", "WebP (52 49 46 46 00 00 00 00 57 45 42 50)"]) {
            try source.feed(Array("RIFF\u{10}\u{0}\u{0}\u{0}WAVEfmt ".utf8))
        }
    }

    func testWebPIsRecognisedWhateverItsRIFFSize() throws {
        let source = ImageSource(registry: registry)
        XCTAssertEqual(try source.feed(Array("RIFF\u{10}\u{27}".utf8)), .awaitingHeader)
        XCTAssertNil(source.formatName, "the size bytes may be anything, but WEBP has not come yet")
        _ = try? source.feed(Array("\u{0}\u{0}WEBPVP8L".utf8))
        XCTAssertEqual(source.formatName, "WebP")
    }

    func testUnknownBytesAreUnsupportedAtOffsetZero() {
        let source = ImageSource(registry: registry)
        expectError(.unsupported, offset: 0, containing: ["00 01 02"]) { try source.feed([0, 1, 2]) }
    }

    func testErrorsAreSticky() {
        let source = ImageSource(registry: registry)
        XCTAssertThrowsError(try source.feed([0x42]))
        expectError(.unsupported, offset: 0, containing: ["42"]) { try source.feed(FakeImageFile.bytes(width: 1, height: 1)) }
        expectError(.unsupported, offset: 0, containing: ["42"]) { _ = try source.finish() }
    }

    func testRecognisedFormatWithoutDecoderIsUnsupported() {
        let withoutDecoder = ImageDecoderRegistry([ImageDecoderFactory(formatName: "PNG", signature: ImageDecoderFactory.png.signature, makeDecoder: nil)])
        let source = ImageSource(registry: withoutDecoder)
        expectError(.unsupported, offset: 0, containing: ["PNG", "no PNG decoder"]) {
            try source.feed([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13])
        }
    }

    func testEmptyInputIsTruncatedAtOffsetZero() {
        expectError(.truncated, offset: 0, containing: ["no bytes"]) { _ = try ImageSource(registry: registry).finish() }
    }

    func testInputEndingInsideTheSignatureIsTruncatedThere() throws {
        let source = ImageSource(registry: registry)
        XCTAssertEqual(try source.feed([0x89, 0x50, 0x4E]), .awaitingHeader)
        XCTAssertNil(source.formatName)
        expectError(.truncated, offset: 3, containing: ["89 50 4E"]) { _ = try source.finish() }
    }

    func testStandardRegistryKnowsPNGJPEGGIFAndWebPSignatures() {
        XCTAssertEqual(ImageDecoderRegistry.standard.factories.map(\.formatName), ["PNG", "JPEG", "GIF", "WebP"])
        XCTAssertEqual(ImageDecoderFactory.gif.signature, [0x47, 0x49, 0x46, 0x38])
        XCTAssertFalse(ImageDecoderFactory.gif.supportsScaling)
        XCTAssertEqual(ImageDecoderFactory.png.signature, [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        XCTAssertEqual(ImageDecoderFactory.jpeg.signature, [0xFF, 0xD8])
        XCTAssertTrue(ImageDecoderFactory.jpeg.supportsScaling)
    }

    func testAddingAFactoryReplacesOneOfTheSameName() {
        let replaced = registry.adding(ImageDecoderFactory(formatName: "TST1", signature: [1], makeDecoder: nil))
        XCTAssertEqual(replaced.factories.map(\.formatName), ["PNG", "JPEG", "GIF", "WebP", "TST1"])
        XCTAssertEqual(replaced.factory(named: "TST1")?.signature, [1])
        XCTAssertFalse(replaced.canDecode("TST1"))
        XCTAssertTrue(registry.canDecode("TST1"))
    }
}
