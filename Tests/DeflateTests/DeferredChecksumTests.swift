import XCTest
import Deflate
import TestSupport

/// The running checksum is summed when the window slides or moves and before the trailer, not
/// at every delivery: a wrong trailer must still be caught at the same offset whatever the
/// chunking, after the window has slid (1 MB of output) and across gzip members.
final class DeferredChecksumTests: XCTestCase {
    private func assertSameMismatchForEveryChunking(_ bytes: [UInt8], format: DeflateFormat, _ name: String) {
        let whole = InflateHarness.run(bytes, format: format)
        XCTAssertEqual(whole.inflateError?.kind, .checksumMismatch, name)
        for pieceSize in [1, 7, 4096] {
            let pieces = InflateHarness.run(Chunking.fixed(bytes, size: pieceSize), format: format)
            XCTAssertEqual(pieces.inflateError?.kind, .checksumMismatch, "\(name), \(pieceSize)-byte pieces")
            XCTAssertEqual(pieces.inflateError?.offset, whole.inflateError?.offset, "\(name), \(pieceSize)-byte pieces")
            XCTAssertEqual(pieces.output.count, whole.output.count, "\(name), \(pieceSize)-byte pieces")
        }
    }

    func testWrongAdler32AfterTheWindowSlidIsCaughtInEveryChunking() throws {
        var bytes = try DeflateFixture.named("zeros_1mb_level9.zlib").bytes()
        XCTAssertEqual(InflateHarness.run(bytes, format: .zlib).output.count, 1 << 20)
        bytes[bytes.count - 1] ^= 0x01
        assertSameMismatchForEveryChunking(bytes, format: .zlib, "zeros_1mb_level9.zlib")
    }

    func testWrongCRC32OfTheSecondGzipMemberIsCaughtInEveryChunking() throws {
        var bytes = try DeflateFixture.named("gzip_two_members.gz").bytes()
        bytes[bytes.count - 5] ^= 0x01
        assertSameMismatchForEveryChunking(bytes, format: .gzip, "gzip_two_members.gz")
    }

    func testCorrectStreamsPassInEveryChunking() throws {
        for (name, format) in [("zeros_1mb_level9.zlib", DeflateFormat.zlib), ("gzip_two_members.gz", .gzip)] {
            let bytes = try DeflateFixture.named(name).bytes()
            for pieceSize in [1, 7, 4096] {
                let run = InflateHarness.run(Chunking.fixed(bytes, size: pieceSize), format: format)
                XCTAssertNil(run.error, "\(name), \(pieceSize)-byte pieces")
            }
        }
    }
}
