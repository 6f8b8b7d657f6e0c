import ImageCore
import TestSupport
import WebPCodec
import XCTest

/// RIFF container rules: metadata chunks, size checks, unknown chunks, clean errors.
final class ContainerTests: XCTestCase {
    func testICCProfileIsReportedWithOddSizePadding() throws {
        let image = try WebPFixtures.decode(try WebPFixtures.bytes("meta_icc.webp"))
        XCTAssertEqual(image.iccProfile, (0..<131).map { UInt8($0) })
        WebPFixtures.assertMatches(image, "meta_icc.webp")
    }

    func testExifOrientationIsReportedNotApplied() throws {
        let decoder = WebPDecoder()
        let image = try decoder.decode(try WebPFixtures.bytes("meta_exif.webp"))
        XCTAssertEqual(image.orientation, .right)
        XCTAssertEqual(decoder.header?.orientation, .right)
        WebPFixtures.assertMatches(image, "meta_exif.webp")
    }

    func testUnknownChunksBeforeAndAfterTheImageAreSkipped() throws {
        let simple = try WebPFixtures.bytes("lossless_odd_z3.webp")
        let vp8l = Array(simple[12...])
        // VP8X (no flags) + an odd-sized unknown chunk + the VP8L chunk + another unknown chunk.
        var body = RIFFBuilder.chunk("VP8X", [0, 0, 0, 0] + RIFFBuilder.le24(66) + RIFFBuilder.le24(44))
        body += RIFFBuilder.chunk("ABCD", [1, 2, 3])
        body += vp8l
        body += RIFFBuilder.chunk("XMP ", Array("<x/>".utf8))
        let image = try WebPFixtures.decode(RIFFBuilder.file(body))
        WebPFixtures.assertMatches(image, "lossless_odd_z3.webp")
    }

    func testWrongSignatureIsInvalidSignature() throws {
        var bytes = try WebPFixtures.bytes("lossless_1x1.webp")
        bytes[8] = UInt8(ascii: "A")  // "WEBP" -> "AEBP"
        XCTAssertEqual(WebPFixtures.errorKind { _ = try WebPFixtures.decode(bytes) }, .invalidSignature)
    }

    func testRIFFSizeTooSmallIsInvalidData() throws {
        var bytes = try WebPFixtures.bytes("lossless_1x1.webp")
        bytes[4] = 4; bytes[5] = 0; bytes[6] = 0; bytes[7] = 0
        let decoder = WebPDecoder()
        XCTAssertThrowsError(try decoder.feed(bytes)) { error in
            XCTAssertEqual((error as? ImageDecodingError)?.kind, .invalidData)
            XCTAssertEqual((error as? ImageDecodingError)?.offset, 4)
        }
        XCTAssertEqual(WebPFixtures.errorKind { _ = try decoder.finish() }, .invalidData, "sticky")
    }

    func testChunkRunningPastTheRIFFEndIsInvalidData() throws {
        var bytes = try WebPFixtures.bytes("lossless_odd_z3.webp")
        let riffSize = bytes.count - 8
        let smaller = riffSize - 10  // the VP8L chunk now ends past the RIFF payload
        bytes[4] = UInt8(smaller & 0xFF); bytes[5] = UInt8(smaller >> 8 & 0xFF)
        bytes[6] = UInt8(smaller >> 16 & 0xFF); bytes[7] = 0
        let decoder = WebPDecoder()
        XCTAssertThrowsError(try decoder.feed(bytes)) { error in
            XCTAssertEqual((error as? ImageDecodingError)?.kind, .invalidData)
            XCTAssertEqual((error as? ImageDecodingError)?.offset, 12)
        }
    }

    func testFirstChunkMustBeAnImageOrVP8X() throws {
        let simple = try WebPFixtures.bytes("lossless_1x1.webp")
        let body = RIFFBuilder.chunk("ICCP", [1, 2]) + Array(simple[12...])
        XCTAssertEqual(WebPFixtures.errorKind { _ = try WebPFixtures.decode(RIFFBuilder.file(body)) }, .invalidData)
    }

    func testVP8XWithoutImageIsInvalidData() throws {
        let body = RIFFBuilder.chunk("VP8X", [0, 0, 0, 0] + RIFFBuilder.le24(9) + RIFFBuilder.le24(9))
        XCTAssertEqual(WebPFixtures.errorKind { _ = try WebPFixtures.decode(RIFFBuilder.file(body)) }, .invalidData)
    }

    func testCanvasSizeMustMatchTheBitstream() throws {
        let simple = try WebPFixtures.bytes("lossless_odd_z3.webp")  // 67×45
        let body = RIFFBuilder.chunk("VP8X", [0, 0, 0, 0] + RIFFBuilder.le24(66) + RIFFBuilder.le24(45)) + Array(simple[12...])
        XCTAssertEqual(WebPFixtures.errorKind { _ = try WebPFixtures.decode(RIFFBuilder.file(body)) }, .invalidData)
    }

    func testCanvasBeyondTheLimitsIsRefusedBeforeDecoding() throws {
        let body = RIFFBuilder.chunk("VP8X", [0, 0, 0, 0] + RIFFBuilder.le24(0xFFFFFF) + RIFFBuilder.le24(0xFFFFFF))
        let decoder = WebPDecoder()
        XCTAssertThrowsError(try decoder.feed(RIFFBuilder.file(body))) { error in
            XCTAssertEqual((error as? ImageDecodingError)?.kind, .limitExceeded)
        }
        XCTAssertNil(decoder.header)
    }

    func testMetadataBeyondTheLimitIsRefused() throws {
        let bytes = try WebPFixtures.bytes("meta_icc.webp")
        let options = DecodingOptions(limits: Limits(maxMetadataBytes: 100))
        XCTAssertEqual(WebPFixtures.errorKind { _ = try WebPFixtures.decode([bytes[...]], options: options) }, .limitExceeded)
    }
}

/// Builds RIFF/WebP files from chunks, for container tests.
enum RIFFBuilder {
    static func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
    static func le24(_ value: Int) -> [UInt8] { (0..<3).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }

    /// FourCC, size, payload, padding byte if odd.
    static func chunk(_ tag: String, _ payload: [UInt8]) -> [UInt8] {
        Array(tag.utf8) + le32(payload.count) + payload + (payload.count % 2 == 1 ? [0] : [])
    }

    /// "RIFF", size, "WEBP", body.
    static func file(_ body: [UInt8]) -> [UInt8] {
        Array("RIFF".utf8) + le32(body.count + 4) + Array("WEBP".utf8) + body
    }
}

/// Feeding stays linear for chunks that are collected whole (metadata, animation frames).
final class CollectedChunkTests: XCTestCase {
    func testA300KBICCProfileFedByteByByteTakesLinearTime() throws {
        let simple = try WebPFixtures.bytes("lossless_odd_z3.webp")
        let profile = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let body = RIFFBuilder.chunk("VP8X", [0x20, 0, 0, 0] + RIFFBuilder.le24(66) + RIFFBuilder.le24(44))
            + RIFFBuilder.chunk("ICCP", profile) + Array(simple[12...])
        let file = RIFFBuilder.file(body)
        let decoder = WebPDecoder()
        let start = Date()
        try file.withUnsafeBytes { raw in
            for i in 0..<raw.count { try decoder.feed(UnsafeRawBufferPointer(rebasing: raw[i..<(i + 1)])) }
        }
        let image = try decoder.finish()
        // Linear: 0.35 s in a debug build on a busy machine. Copying the growing profile on every
        // byte (45 GB of copies) took 10.7 s there.
        XCTAssertLessThan(Date().timeIntervalSince(start), 5)
        XCTAssertEqual(image.iccProfile, profile)
        WebPFixtures.assertMatches(image, "lossless_odd_z3.webp")
    }
}
