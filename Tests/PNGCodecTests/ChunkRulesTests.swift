import ImageCore
import PNGCodec
import XCTest

/// Chunk layout and ordering rules (PNG 5.3, 5.6) and what breaking each one does.
final class ChunkRulesTests: XCTestCase {
    private typealias B = TestPNGBuilder

    private func error(_ bytes: [UInt8], options: DecodingOptions = DecodingOptions()) -> ImageDecodingError? {
        do {
            _ = try PNGDecoder(options: options).decode(bytes)
            return nil
        } catch {
            return error as? ImageDecodingError
        }
    }

    private let rows2x2: [UInt8] = [0, 255, 0, 0, 0, 255, 0, 0, 0, 0, 255, 10, 20, 30]

    func testAWellFormedHandMadeFileDecodesToItsPixels() throws {
        let image = try PNGDecoder().decode(B.rgb2x2())
        XCTAssertEqual(image.format, .rgb8)
        XCTAssertEqual(image.pixels, [255, 0, 0, 0, 255, 0, 0, 0, 255, 10, 20, 30])
    }

    func testTheFirstChunkMustBeIHDR() {
        let bytes = B.file([B.chunk("gAMA", B.be32(45455)), B.ihdr(width: 2, height: 2, bitDepth: 8, colorType: 2),
                            B.idat(rows2x2), B.iend])
        XCTAssertEqual(error(bytes)?.kind, .invalidData)
        XCTAssertEqual(error(bytes)?.offset, 8)
    }

    func testASecondIHDRIsInvalid() {
        let header = B.ihdr(width: 2, height: 2, bitDepth: 8, colorType: 2)
        XCTAssertEqual(error(B.file([header, header, B.idat(rows2x2), B.iend]))?.kind, .invalidData)
    }

    func testAPaletteImageNeedsPLTEBeforeIDAT() {
        let bytes = B.file([B.ihdr(width: 1, height: 1, bitDepth: 8, colorType: 3), B.idat([0, 0]), B.iend])
        XCTAssertEqual(error(bytes)?.kind, .invalidData)
    }

    func testASecondPLTEIsInvalid() {
        let plte = B.chunk("PLTE", [1, 2, 3])
        let bytes = B.file([B.ihdr(width: 1, height: 1, bitDepth: 8, colorType: 3), plte, plte, B.idat([0, 0]), B.iend])
        XCTAssertEqual(error(bytes)?.kind, .invalidData)
    }

    func testPLTEWithALengthNotAMultipleOfThreeIsInvalid() {
        let bytes = B.file([B.ihdr(width: 1, height: 1, bitDepth: 8, colorType: 3), B.chunk("PLTE", [1, 2, 3, 4]),
                            B.idat([0, 0]), B.iend])
        XCTAssertEqual(error(bytes)?.kind, .invalidData)
    }

    func testPaletteIndicesPastThePaletteAreOpaqueBlackLikeLibpng() throws {
        let bytes = B.file([B.ihdr(width: 2, height: 1, bitDepth: 8, colorType: 3), B.chunk("PLTE", [9, 8, 7]),
                            B.idat([0, 0, 5]), B.iend])
        XCTAssertEqual(try PNGDecoder().decode(bytes).pixels, [9, 8, 7, 0, 0, 0])
    }

    func testAnUnknownCriticalChunkIsUnsupported() {
        let bytes = B.rgb2x2(extraBeforeIDAT: [B.chunk("ABCD", [1, 2, 3])])
        XCTAssertEqual(error(bytes)?.kind, .unsupported)
    }

    func testAnUnknownAncillaryChunkIsSkippedSilently() throws {
        let decoder = PNGDecoder()
        let image = try decoder.decode(B.rgb2x2(extraBeforeIDAT: [B.chunk("abCd", [1, 2, 3])], extraAfterIDAT: [B.chunk("zzZz", [])]))
        XCTAssertEqual(image.pixels, try PNGDecoder().decode(B.rgb2x2()).pixels)
        XCTAssertEqual(decoder.warnings, [])
    }

    func testAChunkTypeWithNonLetterBytesIsInvalid() {
        let bytes = B.rgb2x2(extraBeforeIDAT: [B.chunk("ab1d", [])])
        XCTAssertEqual(error(bytes)?.kind, .invalidData)
    }

    func testAChunkLengthAbove2To31Minus1IsInvalid() {
        var bytes = B.rgb2x2(extraBeforeIDAT: [B.chunk("abCd", [])])
        let offset = 8 + 25
        bytes.replaceSubrange(offset..<(offset + 4), with: [0x80, 0, 0, 0])
        XCTAssertEqual(error(bytes)?.kind, .invalidData)
        XCTAssertEqual(error(bytes)?.offset, offset)
    }

    func testAMisplacedAncillaryChunkIsSkippedWithAWarning() throws {
        // gAMA must come before PLTE (PNG 5.6); after it, libpng ignores it, and so do we.
        let bytes = B.file([B.ihdr(width: 1, height: 1, bitDepth: 8, colorType: 3), B.chunk("PLTE", [1, 2, 3]),
                            B.chunk("gAMA", B.be32(45455)), B.idat([0, 0]), B.iend])
        let decoder = PNGDecoder()
        XCTAssertEqual(try decoder.decode(bytes).pixels, [1, 2, 3])
        XCTAssertNil(decoder.metadata.gamma)
        XCTAssertEqual(decoder.warnings.count, 1)
        XCTAssertEqual(decoder.warnings.first?.offset, 8 + 25 + 15)
    }

    func testIDATChunksMustBeConsecutive() {
        let stream = B.zlibStored(rows2x2)
        let bytes = B.file([B.ihdr(width: 2, height: 2, bitDepth: 8, colorType: 2), B.chunk("IDAT", Array(stream[..<5])),
                            B.chunk("tEXt", Array("a\0b".utf8)), B.chunk("IDAT", Array(stream[5...])), B.iend])
        XCTAssertEqual(error(bytes)?.kind, .invalidData)
    }

    func testIENDWithoutIDATIsInvalid() {
        XCTAssertEqual(error(B.file([B.ihdr(width: 2, height: 2, bitDepth: 8, colorType: 2), B.iend]))?.kind, .invalidData)
    }

    func testAMissingIENDIsTruncatedButThePictureIsComplete() throws {
        let bytes = B.file([B.ihdr(width: 2, height: 2, bitDepth: 8, colorType: 2), B.idat(rows2x2)])
        let decoder = PNGDecoder()
        try decoder.feed(bytes)
        XCTAssertEqual(PNGTestSupport.errorKind { try decoder.finish() }, .truncated)
        XCTAssertEqual(decoder.currentImage()?.pixels, [255, 0, 0, 0, 255, 0, 0, 0, 255, 10, 20, 30])
    }

    func testBytesAfterIENDAreIgnored() throws {
        let decoder = PNGDecoder()
        try decoder.feed(B.rgb2x2() + [1, 2, 3])
        try decoder.feed([4, 5, 6])
        XCTAssertTrue(decoder.status.isComplete)
        XCTAssertEqual(try decoder.finish().pixels.count, 12)
    }

    func testImageDataThatEndsTooEarlyIsInvalid() {
        let bytes = B.file([B.ihdr(width: 2, height: 2, bitDepth: 8, colorType: 2), B.idat(Array(rows2x2[..<7])), B.iend])
        XCTAssertEqual(error(bytes)?.kind, .invalidData)
    }

    func testExtraImageDataAfterTheLastRowIsIgnoredLikeLibpng() throws {
        let bytes = B.file([B.ihdr(width: 2, height: 2, bitDepth: 8, colorType: 2), B.idat(rows2x2 + [0, 9, 9, 9]), B.iend])
        XCTAssertEqual(try PNGDecoder().decode(bytes).pixels, [255, 0, 0, 0, 255, 0, 0, 0, 255, 10, 20, 30])
    }

    func testAFilterTypeAbove4IsInvalidData() {
        var rows = rows2x2
        rows[7] = 5
        let bytes = B.file([B.ihdr(width: 2, height: 2, bitDepth: 8, colorType: 2), B.idat(rows), B.iend])
        XCTAssertEqual(error(bytes)?.kind, .invalidData)
        XCTAssertTrue(error(bytes)?.message.contains("filter type 5") ?? false)
    }

    func testABadCRCOnAnAncillaryChunkIsAChecksumMismatchWarningAtTheCRC() throws {
        var text = B.chunk("tEXt", Array("Title\0x".utf8))
        text[text.count - 1] ^= 1
        let bytes = B.rgb2x2(extraBeforeIDAT: [text])
        let decoder = PNGDecoder()
        XCTAssertEqual(try decoder.decode(bytes).pixels.count, 12)
        XCTAssertEqual(decoder.warnings.map(\.kind), [.checksumMismatch])
        XCTAssertEqual(decoder.warnings.first?.offset, 8 + 25 + 8 + 7)
    }

    func testABadCRCOnACriticalChunkIsAChecksumMismatchAtTheCRC() {
        var bytes = B.file([B.ihdr(width: 2, height: 2, bitDepth: 8, colorType: 2), B.idat(rows2x2), B.iend])
        bytes[8 + 25 - 1] ^= 1  // the last byte of IHDR's CRC
        XCTAssertEqual(error(bytes)?.kind, .checksumMismatch)
        XCTAssertEqual(error(bytes)?.offset, 8 + 8 + 13)
    }

    func testChecksumsCanBeSwitchedOff() throws {
        var text = B.chunk("tEXt", Array("Title\0x".utf8))
        text[text.count - 1] ^= 1
        var bytes = B.rgb2x2(extraBeforeIDAT: [text])
        bytes[bytes.count - 12 - 5] ^= 0xFF   // inside the Adler-32 of the IDAT stream
        let options = DecodingOptions(verifyChecksums: false)
        let unchecked = PNGDecoder(options: options)
        XCTAssertEqual(try unchecked.decode(bytes).pixels.count, 12)
        XCTAssertTrue(unchecked.warnings.isEmpty, "nothing was checked")
        XCTAssertEqual(error(bytes)?.kind, .checksumMismatch, "the Adler-32 is checked when checks are on")
    }

    func testZeroLengthIDATChunksAreAllowed() throws {
        let stream = B.zlibStored(rows2x2)
        let bytes = B.file([B.ihdr(width: 2, height: 2, bitDepth: 8, colorType: 2), B.chunk("IDAT", []),
                            B.chunk("IDAT", Array(stream[..<3])), B.chunk("IDAT", []), B.chunk("IDAT", Array(stream[3...])),
                            B.chunk("IDAT", []), B.iend])
        XCTAssertEqual(try PNGDecoder().decode(bytes).pixels, [255, 0, 0, 0, 255, 0, 0, 0, 255, 10, 20, 30])
    }

    func testErrorsAreSticky() throws {
        let decoder = PNGDecoder()
        var bytes = B.rgb2x2()
        bytes[0] = 0x88
        XCTAssertThrowsError(try decoder.feed(bytes))
        XCTAssertThrowsError(try decoder.feed(B.rgb2x2())) { error in
            XCTAssertEqual((error as? ImageDecodingError)?.kind, .invalidSignature)
        }
        XCTAssertEqual(PNGTestSupport.errorKind { try decoder.finish() }, .invalidSignature)
    }

    func testAWrongSignatureIsReportedAtTheFirstWrongByteBeforeTheRestArrives() {
        let decoder = PNGDecoder()
        XCTAssertThrowsError(try decoder.feed([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0D])) { error in
            XCTAssertEqual((error as? ImageDecodingError)?.kind, .invalidSignature)
            XCTAssertEqual((error as? ImageDecodingError)?.offset, 5)
        }
    }
}
