import ImageCore
@testable import JPEGCodec
import TestSupport
import XCTest

/// APPn and COM segments whose length field is below 2 (found in Wuffs' test files): libjpeg
/// skips such a segment by "length − 2" bytes, that is nothing, and goes on searching for the next
/// marker after the length field; other segments with such a length stay errors.
final class JPEGBadSegmentLengthTests: XCTestCase {
    private let path = "jpeg/libjpeg-turbo/testorig.jpg"

    /// testorig.jpg with `inserted` placed right after SOI.
    private func withInsertion(_ inserted: [UInt8]) throws -> [UInt8] {
        let original = try JPEGCorpus.bytes(path)
        return Array(original[..<2]) + inserted + Array(original[2...])
    }

    func testAPPnAndCOMWithLengthBelowTwoAreSkippedWithAWarningInAnyPieces() throws {
        let reference = try XCTUnwrap(try JPEGCorpus.entry(path).reference?.sha256)
        // COM with length 0 at offset 2 (length at 4); APP5 with length 1 at 6 (length at 8); then
        // a byte that starts no marker, skipped as extraneous as libjpeg does (that warning is
        // at the marker after it, the original APP0 at 11).
        let bytes = try withInsertion([0xFF, 0xFE, 0x00, 0x00, 0xFF, 0xE5, 0x00, 0x01, 0x42])
        for size in [bytes.count, 7, 1] {
            let decoder = JPEGDecoder()
            for piece in Chunking.fixed(bytes, size: size) { try decoder.feed(piece) }
            let image = try decoder.finish()
            XCTAssertEqual(Digest.sha256(image.pixels), reference, "pieces of \(size)")
            XCTAssertEqual(decoder.warnings.map(\.kind), [.invalidData, .invalidData, .invalidData], "pieces of \(size)")
            XCTAssertEqual(decoder.warnings.map(\.offset), [4, 8, 11], "pieces of \(size)")
        }
    }

    func testOtherSegmentsWithLengthBelowTwoStayErrors() throws {
        let bytes = try withInsertion([0xFF, 0xDB, 0x00, 0x01])   // DQT declaring length 1
        let decoder = JPEGDecoder()
        XCTAssertThrowsError(try decoder.feed(bytes[...])) { error in
            XCTAssertEqual((error as? ImageDecodingError)?.kind, .invalidData)
            XCTAssertEqual((error as? ImageDecodingError)?.offset, 4)
        }
    }
}
