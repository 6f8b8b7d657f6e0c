import ImageCore
import PNGCodec
import TestSupport
import XCTest

/// The natural output format of each PNG kind, and the preferred-format conversions.
final class OutputFormatTests: XCTestCase {
    private typealias B = TestPNGBuilder

    private func natural(_ name: String) throws -> (PixelFormat?, PixelFormat) {
        let decoder = PNGDecoder()
        let image = try decoder.decode(try Fixtures.bytes("corpus/png/pngsuite/" + name))
        return (decoder.header?.pixelFormat, image.format)
    }

    func testNaturalFormatsFollowTheArchitectureRules() throws {
        let expected: [(String, PixelFormat)] = [
            ("basn0g01.png", .gray8), ("basn0g02.png", .gray8), ("basn0g04.png", .gray8), ("basn0g08.png", .gray8),
            ("basn0g16.png", .gray16), ("basn2c08.png", .rgb8), ("basn2c16.png", .rgb16),
            ("basn3p01.png", .rgb8), ("basn3p08.png", .rgb8), ("basn4a08.png", .grayAlpha8), ("basn4a16.png", .grayAlpha16),
            ("basn6a08.png", .rgba8), ("basn6a16.png", .rgba16),
            ("tbbn0g04.png", .grayAlpha8), ("tbrn2c08.png", .rgba8), ("tbbn2c16.png", .rgba16), ("tbgn3p08.png", .rgba8),
            ("tp1n3p08.png", .rgba8),
        ]
        for (name, format) in expected {
            let (header, image) = try natural(name)
            XCTAssertEqual(image, format, name)
            XCTAssertEqual(header, format, "\(name): the header announces the final format")
        }
    }

    func testSubByteGrayIsScaledByBitReplication() throws {
        // 2-bit gray samples 0, 1, 2, 3 → 0, 85, 170, 255 (PNG 12.4 / libpng).
        let bytes = B.file([B.ihdr(width: 4, height: 1, bitDepth: 2, colorType: 0), B.idat([0, 0b00_01_10_11]), B.iend])
        XCTAssertEqual(try PNGDecoder().decode(bytes).pixels, [0, 85, 170, 255])
        // 4-bit: 0x5 → 0x55; 1-bit 1 → 255.
        let four = B.file([B.ihdr(width: 2, height: 1, bitDepth: 4, colorType: 0), B.idat([0, 0x5F]), B.iend])
        XCTAssertEqual(try PNGDecoder().decode(four).pixels, [0x55, 0xFF])
    }

    func testAGrayColourKeyComparesStoredSamples() throws {
        // 4-bit gray, key 3: sample 3 (shown as 0x33) is transparent, others opaque.
        let bytes = B.file([B.ihdr(width: 3, height: 1, bitDepth: 4, colorType: 0), B.chunk("tRNS", [0, 3]),
                            B.idat([0, 0x13, 0x30]), B.iend])
        let image = try PNGDecoder().decode(bytes)
        XCTAssertEqual(image.format, .grayAlpha8)
        XCTAssertEqual(image.pixels, [0x11, 255, 0x33, 0, 0x33, 0])
    }

    func testAnRGB16ColourKeyNeedsAllSixteenBitsToMatch() throws {
        let key: [UInt8] = [0x12, 0x34, 0, 0, 0xFF, 0xFF]
        let rows: [UInt8] = [0, 0x12, 0x34, 0, 0, 0xFF, 0xFF, 0x12, 0x35, 0, 0, 0xFF, 0xFF]
        let bytes = B.file([B.ihdr(width: 2, height: 1, bitDepth: 16, colorType: 2), B.chunk("tRNS", key), B.idat(rows), B.iend])
        let image = try PNGDecoder().decode(bytes)
        XCTAssertEqual(image.format, .rgba16)
        XCTAssertEqual(Array(image.pixels[6..<8]), [0, 0])
        XCTAssertEqual(Array(image.pixels[14..<16]), [0xFF, 0xFF])
    }

    func testPreferredRGBA8And16MatchTheReferencesDirectly() throws {
        for entry in try PNGTestSupport.decodableEntries() where entry.path.contains("pngsuite/") {
            let bytes = try CorpusManifest.bytes(of: entry)
            let sixteen = entry.reference?.pixel_format == "rgba16be"
            let wanted: PixelFormat = sixteen ? .rgba16 : .rgba8
            let decoder = PNGDecoder(options: DecodingOptions(preferredFormat: wanted))
            let image = try decoder.decode(bytes)
            XCTAssertEqual(image.format, wanted, entry.path)
            XCTAssertEqual(decoder.header?.pixelFormat, wanted, entry.path)
            XCTAssertEqual(Digest.sha256(image.pixels), entry.reference?.sha256, entry.path)
        }
    }

    func testSixteenBitToRGBA8RoundsLikePngSetScale16() throws {
        for entry in try PNGTestSupport.decodableEntries() where entry.reference?.pixel_format == "rgba16be" {
            let image = try PNGDecoder(options: DecodingOptions(preferredFormat: .rgba8)).decode(try CorpusManifest.bytes(of: entry))
            XCTAssertEqual(Digest.sha256(image.pixels), entry.reference?.rgba8_from16_round_sha256, entry.path)
        }
    }

    func testOtherPreferredFormatsAreConversionsOfTheNaturalImage() throws {
        let bytes = try Fixtures.bytes("corpus/png/pngsuite/basn6a16.png")
        let natural = try PNGDecoder().decode(bytes)
        for format in [PixelFormat.gray8, .rgb8, .grayAlpha16] {
            let image = try PNGDecoder(options: DecodingOptions(preferredFormat: format)).decode(bytes)
            XCTAssertEqual(image, natural.converted(to: format), "\(format)")
        }
        // cmyk8 is a JPEG-only request: PNG keeps its natural format.
        XCTAssertEqual(try PNGDecoder(options: DecodingOptions(preferredFormat: .cmyk8)).decode(bytes).format, .rgba16)
    }

    func testTheHeaderIsKnownRightAfterIHDR() throws {
        let bytes = try Fixtures.bytes("corpus/png/pngsuite/basn2c08.png")
        let decoder = PNGDecoder()
        try decoder.feed(Array(bytes[..<32]))
        XCTAssertNil(decoder.header)
        XCTAssertEqual(decoder.status, .awaitingHeader)
        try decoder.feed(Array(bytes[32..<33]))   // 8 signature + 8 header + 13 data + 4 CRC
        XCTAssertEqual(decoder.header, ImageHeader(fileFormat: .png, width: 32, height: 32, pixelFormat: .rgb8,
                                                   bitDepth: 8, isProgressive: false))
        XCTAssertEqual(decoder.currentImage(), Image(blankWidth: 32, height: 32, format: .rgb8))
        XCTAssertEqual(decoder.status.progress?.completedRows, 0)
    }

    func testLimitsAreCheckedAtIHDRBeforeAnyAllocation() {
        let big = B.file([B.ihdr(width: 100_000, height: 100_000, bitDepth: 16, colorType: 6), B.idat([0]), B.iend])
        let decoder = PNGDecoder()
        XCTAssertThrowsError(try decoder.feed(big)) { error in
            XCTAssertEqual((error as? ImageDecodingError)?.kind, .limitExceeded)
            XCTAssertEqual((error as? ImageDecodingError)?.offset, 16)
        }
        let wide = B.file([B.ihdr(width: 300, height: 1, bitDepth: 8, colorType: 0), B.idat([0]), B.iend])
        let options = DecodingOptions(limits: Limits(maxDimension: 299))
        XCTAssertEqual(PNGTestSupport.errorKind { try PNGDecoder(options: options).decode(wide) }, .limitExceeded)
    }

    func testAZlibBombInTheImageDataStopsAtTheInflateLimit() {
        // 1×1 gray needs 2 bytes; the stream inflates to 100 000.
        let rows = [UInt8](repeating: 0, count: 100_000)
        let bytes = B.file([B.ihdr(width: 1, height: 1, bitDepth: 8, colorType: 0), B.idat(rows), B.iend])
        let options = DecodingOptions(limits: Limits(maxInflateOutput: 1000))
        XCTAssertEqual(PNGTestSupport.errorKind { try PNGDecoder(options: options).decode(bytes) }, .limitExceeded)
        XCTAssertEqual(try PNGDecoder().decode(bytes).pixels, [0], "within the default limit the excess is ignored")
    }
}
