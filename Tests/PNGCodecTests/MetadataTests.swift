import Deflate
import ImageCore
import PNGCodec
import TestSupport
import XCTest

/// Ancillary chunks (PNG 11.3) reported in `PNGDecoder.metadata` and the header.
/// Expected values were read from the files with a separate Python chunk dump.
final class MetadataTests: XCTestCase {
    private typealias B = TestPNGBuilder

    private func decoded(_ name: String) throws -> PNGDecoder {
        let decoder = PNGDecoder()
        _ = try decoder.decode(try Fixtures.bytes("corpus/png/pngsuite/" + name))
        return decoder
    }

    func testGammaIsReportedAsStored() throws {
        XCTAssertEqual(try decoded("g03n0g16.png").metadata.gamma, 35000)
        XCTAssertEqual(try decoded("ct1n0g04.png").metadata.gamma, 100_000)
    }

    func testTextChunksInFileOrder() throws {
        let entries = try decoded("ct1n0g04.png").metadata.textEntries
        XCTAssertEqual(entries.map(\.keyword), ["Title", "Author", "Copyright", "Description", "Software", "Disclaimer"])
        XCTAssertEqual(entries.first, PNGTextEntry(kind: .tEXt, keyword: "Title", text: "PngSuite"))
        XCTAssertEqual(entries[1].text, "Willem A.J. van Schaik\n(willem@schaik.com)")
    }

    func testCompressedTextIsInflated() throws {
        let entries = try decoded("ctzn0g04.png").metadata.textEntries
        XCTAssertEqual(entries.map(\.kind), [.tEXt, .tEXt, .zTXt, .zTXt, .zTXt, .zTXt])
        XCTAssertEqual(entries[2].text, "Copyright Willem van Schaik, Singapore 1995-96")
        XCTAssertEqual(entries[5].text, "Freeware.")
    }

    func testInternationalTextKeepsLanguageAndTranslatedKeyword() throws {
        let japanese = try decoded("ctjn0g04.png").metadata.textEntries
        XCTAssertEqual(japanese.first, PNGTextEntry(kind: .iTXt, keyword: "Title", text: "PngSuite",
                                                    languageTag: "ja", translatedKeyword: "タイトル"))
        let english = try decoded("cten0g04.png").metadata.textEntries
        XCTAssertEqual(english[5], PNGTextEntry(kind: .iTXt, keyword: "Disclaimer", text: "Freeware.",
                                                languageTag: "en", translatedKeyword: "Disclaimer"))
    }

    func testTimeChromaticitiesDimensionsSignificantBitsAndBackground() throws {
        XCTAssertEqual(try decoded("cm0n0g04.png").metadata.lastModified,
                       PNGTimestamp(year: 2000, month: 1, day: 1, hour: 12, minute: 34, second: 56))
        XCTAssertEqual(try decoded("ccwn2c08.png").metadata.chromaticities,
                       PNGChromaticities(whiteX: 31270, whiteY: 32900, redX: 64000, redY: 33000,
                                         greenX: 30000, greenY: 60000, blueX: 15000, blueY: 6000))
        let cdf = try decoded("cdfn2c08.png").metadata
        XCTAssertEqual(cdf.physicalDimensions, PNGPhysicalDimensions(pixelsPerUnitX: 1, pixelsPerUnitY: 4, unitIsMeter: false))
        XCTAssertEqual(cdf.significantBits, [4, 4, 4])
        XCTAssertEqual(try decoded("cs3n2c16.png").metadata.significantBits, [13, 13, 13])
        XCTAssertEqual(try decoded("bgwn6a08.png").metadata.background, .rgb(255, 255, 255))
        XCTAssertEqual(try decoded("tbbn0g04.png").metadata.background, .gray(0))
    }

    func testSRGBAndICCProfileReachTheHeaderAndTheImage() throws {
        let profile = Array("not really an ICC profile, but bytes all the same".utf8)
        let iccp = B.chunk("iCCP", Array("My profile".utf8) + [0, 0] + B.zlibStored(profile))
        let decoder = PNGDecoder()
        let image = try decoder.decode(B.rgb2x2(extraBeforeIDAT: [B.chunk("sRGB", [1]), iccp]))
        XCTAssertEqual(decoder.metadata.srgbRenderingIntent, .relativeColorimetric)
        XCTAssertEqual(decoder.metadata.iccProfileName, "My profile")
        XCTAssertEqual(decoder.metadata.iccProfile, profile)
        XCTAssertEqual(decoder.header?.iccProfile, profile)
        XCTAssertEqual(image.iccProfile, profile)
    }

    func testExifOrientationReachesTheHeaderAndTheImage() throws {
        for (bigEndian, orientation) in [(true, Orientation.right), (false, Orientation.downMirrored)] {
            let value = orientation.rawValue
            let tiff: [UInt8] = bigEndian
                ? [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, value, 0, 0, 0, 0, 0, 0]
                : [0x49, 0x49, 42, 0, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, value, 0, 0, 0, 0, 0, 0, 0]
            let decoder = PNGDecoder()
            let image = try decoder.decode(B.rgb2x2(extraBeforeIDAT: [B.chunk("eXIf", tiff)]))
            XCTAssertEqual(decoder.metadata.exif, tiff)
            XCTAssertEqual(decoder.metadata.orientation, orientation)
            XCTAssertEqual(decoder.header?.orientation, orientation)
            XCTAssertEqual(image.orientation, orientation)
        }
    }

    func testTextAfterTheImageDataIsStillRead() throws {
        let decoder = PNGDecoder()
        _ = try decoder.decode(B.rgb2x2(extraAfterIDAT: [B.chunk("tEXt", Array("Comment\0late".utf8))]))
        XCTAssertEqual(decoder.metadata.textEntries, [PNGTextEntry(kind: .tEXt, keyword: "Comment", text: "late")])
    }

    func testMalformedAncillaryChunksAreSkippedWithWarnings() throws {
        let decoder = PNGDecoder()
        let bad = [B.chunk("gAMA", [1, 2, 3]), B.chunk("tEXt", Array("no keyword terminator".utf8)),
                   B.chunk("zTXt", Array("Key\0\0".utf8) + [1, 2, 3, 4]), B.chunk("sRGB", [7])]
        let image = try decoder.decode(B.rgb2x2(extraBeforeIDAT: bad))
        XCTAssertEqual(image.pixels.count, 12)
        XCTAssertEqual(decoder.warnings.count, 4)
        XCTAssertNil(decoder.metadata.gamma)
        XCTAssertEqual(decoder.metadata.textEntries, [])
    }

    func testMetadataBeyondTheLimitIsLimitExceeded() {
        let text = B.chunk("tEXt", Array("Comment\0".utf8) + [UInt8](repeating: 0x41, count: 2000))
        let options = DecodingOptions(limits: Limits(maxMetadataBytes: 1000))
        XCTAssertEqual(PNGTestSupport.errorKind { try PNGDecoder(options: options).decode(B.rgb2x2(extraBeforeIDAT: [text])) },
                       .limitExceeded)
        // A 120-byte compressed profile (zlib.compress(bytes(100000), 9)) that inflates past the limit
        // is caught while inflating.
        let bomb: [UInt8] = [0x78, 0xda, 0xed, 0xc1, 0x31, 0x01, 0x00, 0x00, 0x00, 0xc2, 0xa0, 0xf5, 0x4f, 0x6d, 0x0d, 0x0f, 0xa0] + [UInt8](repeating: 0, count: 96) + [0x80, 0x57, 0x03, 0x86, 0xaf, 0x00, 0x01]
        let iccp = B.chunk("iCCP", Array("p".utf8) + [0, 0] + bomb)
        XCTAssertEqual(PNGTestSupport.errorKind { try PNGDecoder(options: options).decode(B.rgb2x2(extraBeforeIDAT: [iccp])) },
                       .limitExceeded)
    }
}
