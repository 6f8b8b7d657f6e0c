import ImageCore
import TestSupport
import WebPCodec
import XCTest

/// Broken VP8 data gives clean errors; rows decoded before the damage stay.
final class MalformedLossyTests: XCTestCase {
    /// A multi-partition file: RIFF (12) + "VP8 " header (8), then the 10-byte frame tag.
    static let name = "webp/libwebp-test-data/vp80-04-partitions-1405.webp"
    static let vp8Payload = 20

    static func firstPartitionSize(_ bytes: [UInt8]) -> Int {
        (Int(bytes[vp8Payload]) | Int(bytes[vp8Payload + 1]) << 8 | Int(bytes[vp8Payload + 2]) << 16) >> 5
    }

    func testPartitionSizesBeyondTheDataAreInvalidData() throws {
        var bytes = try Fixtures.bytes(Self.name)
        // The first 3-byte token partition size, right after the first partition: make it huge,
        // so the partitions after it get no bytes (libwebp clamps, then finds the last one empty).
        let table = Self.vp8Payload + 10 + Self.firstPartitionSize(bytes)
        bytes[table] = 0xFF; bytes[table + 1] = 0xFF; bytes[table + 2] = 0x0F
        let decoder = WebPDecoder()
        XCTAssertThrowsError(try decoder.feed(bytes)) { error in
            XCTAssertEqual((error as? ImageDecodingError)?.kind, .invalidData)
            XCTAssertEqual((error as? ImageDecodingError)?.offset, table, "at the partition size table")
        }
        XCTAssertNotNil(decoder.currentImage(), "the size was known")
        XCTAssertEqual(WebPFixtures.errorKind { _ = try decoder.finish() }, .invalidData, "sticky")
    }

    func testFirstPartitionBeyondTheChunkIsInvalidData() throws {
        var bytes = try Fixtures.bytes(Self.name)
        // 19-bit size in bits 5–23 of the frame tag: set all of them.
        bytes[Self.vp8Payload] |= 0xE0; bytes[Self.vp8Payload + 1] = 0xFF; bytes[Self.vp8Payload + 2] = 0xFF
        XCTAssertEqual(WebPFixtures.errorKind { _ = try WebPFixtures.decode(bytes) }, .invalidData)
    }

    func testAWrongStartCodeIsInvalidData() throws {
        var bytes = try Fixtures.bytes(Self.name)
        bytes[Self.vp8Payload + 3] = 0x9E
        let decoder = WebPDecoder()
        XCTAssertThrowsError(try decoder.feed(bytes)) { error in
            XCTAssertEqual((error as? ImageDecodingError)?.kind, .invalidData)
            XCTAssertEqual((error as? ImageDecodingError)?.offset, Self.vp8Payload)
        }
    }

    func testATokenPartitionEndingEarlyKeepsTheRowsBeforeIt() throws {
        // The whole VP8 chunk cut to 60 % (and the sizes fixed so the file is complete): the
        // last partition ends early. Rows decoded before the end are kept.
        let original = try WebPFixtures.bytes("lossy_large.webp")
        let payload = Array(original[20..<(20 + (original.count - 20) * 6 / 10)])
        let file = RIFFBuilder.file(RIFFBuilder.chunk("VP8 ", payload))
        let decoder = WebPDecoder()
        XCTAssertThrowsError(try decoder.feed(file)) { error in
            XCTAssertEqual((error as? ImageDecodingError)?.kind, .invalidData)
        }
        XCTAssertGreaterThan(decoder.status.progress?.completedRows ?? 0, 0)
        let full = try WebPFixtures.decode(original)
        let rows = decoder.status.progress?.completedRows ?? 0
        XCTAssertEqual(decoder.currentImage()?.pixels[..<(rows * full.bytesPerRow)], full.pixels[..<(rows * full.bytesPerRow)])
    }

    func testMutatedLossyAndAnimatedFilesNeverTrapAndAgreeAcrossChunkings() throws {
        let paths = ["webp/files/lossy_odd.webp", "webp/files/alpha_m1_best.webp", Self.name,
                     "webp/files/anim_gif_mixed.webp", "webp/files/anim_lossy.webp"]
        try MalformedLosslessTests.assertMutationsAgreeAcrossChunkings(paths, seed: 0x10551, perFile: 60)
    }
}
