import XCTest
import ImageCore
import JPEGCodec
import TestSupport

/// Exif orientation, ICC profiles and raw CMYK output.
final class JPEGMetadataTests: XCTestCase {
    func testExifOrientationIsReadInBothByteOrdersAndAppliesToTheReference() throws {
        let entries = try CorpusManifest.load().files.filter { $0.exif_orientation != nil && $0.isJPEG }
        XCTAssertEqual(entries.count, 16)
        for entry in entries {
            let decoder = JPEGDecoder()
            let image = try decoder.decode(try CorpusManifest.bytes(of: entry))
            XCTAssertEqual(decoder.header?.orientation.rawValue, UInt8(entry.exif_orientation ?? 0), entry.path)
            XCTAssertEqual(image.orientation.rawValue, UInt8(entry.exif_orientation ?? 0), entry.path)
            XCTAssertEqual(Digest.sha256(image.pixels), entry.reference?.sha256, entry.path)
            let upright = image.applyingOrientation()
            XCTAssertEqual(upright.width, entry.oriented_reference?.width, entry.path)
            XCTAssertEqual(Digest.sha256(upright.pixels), entry.oriented_reference?.sha256, entry.path)
        }
    }

    func testOrientationIsKnownBeforeAnyPixelArrives() throws {
        let bytes = try JPEGCorpus.bytes("jpeg/generated/exif_orientation_6_le.jpg")
        let decoder = JPEGDecoder()
        // The Exif APP1 and the SOF come well before the entropy-coded data.
        try decoder.feed(bytes[..<sofEnd(bytes)])
        XCTAssertEqual(decoder.header?.orientation, .right)
        XCTAssertEqual(decoder.header?.width, 48)
    }

    func testICCProfileReassemblesFromOneAndFromNineAPP2Segments() throws {
        for path in ["jpeg/generated/synth_icc_single_app2.jpg", "jpeg/generated/synth16x16_icc_multi_app2.jpg"] {
            let entry = try JPEGCorpus.entry(path)
            let decoder = JPEGDecoder()
            let image = try decoder.decode(try JPEGCorpus.bytes(path))
            let profile = try XCTUnwrap(image.iccProfile, path)
            XCTAssertEqual(Digest.sha256(profile), entry.icc_sha256, path)
            XCTAssertEqual(decoder.header?.iccProfile, profile, path)
        }
    }

    func testICCProfileOverTheMetadataLimitIsRejected() throws {
        let bytes = try JPEGCorpus.bytes("jpeg/generated/synth16x16_icc_multi_app2.jpg")
        let decoder = JPEGDecoder(options: DecodingOptions(limits: Limits(maxMetadataBytes: 100_000)))
        XCTAssertThrowsError(try decoder.decode(bytes)) { error in
            XCTAssertEqual((error as? ImageDecodingError)?.kind, .limitExceeded)
        }
    }

    func testCMYKAndYCCKGiveRawCMYKOnRequest() throws {
        let entries = try CorpusManifest.load().files.filter { $0.reference_cmyk != nil }
        XCTAssertEqual(entries.count, 4)
        for entry in entries {
            let decoder = JPEGDecoder(options: DecodingOptions(preferredFormat: .cmyk8))
            let image = try decoder.decode(try CorpusManifest.bytes(of: entry))
            XCTAssertEqual(image.format, .cmyk8, entry.path)
            XCTAssertEqual(decoder.header?.pixelFormat, .cmyk8, entry.path)
            XCTAssertEqual(Digest.sha256(image.pixels), entry.reference_cmyk?.sha256, entry.path)
            // And the djpeg-style RGB from it matches the RGB reference.
            XCTAssertEqual(Digest.sha256(image.converted(to: .rgb8).pixels), entry.reference?.sha256, entry.path)
        }
    }

    func testPreferredFormatOtherThanCMYKConvertsTheOutput() throws {
        let bytes = try JPEGCorpus.bytes("jpeg/generated/testorig_gray.jpg")
        let gray = try JPEGDecoder().decode(bytes)
        let decoder = JPEGDecoder(options: DecodingOptions(preferredFormat: .rgba8))
        let rgba = try decoder.decode(bytes)
        XCTAssertEqual(decoder.header?.pixelFormat, .rgba8)
        XCTAssertEqual(rgba, gray.converted(to: .rgba8))
    }

    /// Index just past the SOF segment.
    private func sofEnd(_ bytes: [UInt8]) -> Int {
        var index = 2
        while index + 4 <= bytes.count {
            let marker = bytes[index + 1]
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            index += 2 + length
            if marker == 0xC0 || marker == 0xC1 { return index }
        }
        return bytes.count
    }
}
