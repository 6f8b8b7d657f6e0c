import XCTest
import Deflate
import TestSupport

/// The inflater never re-reads consumed input, so its work is O(n) however the input is split.
///
/// `Inflater.inputBytesExamined` counts bytes where they are read: 1 per byte pulled into the bit
/// buffer by the careful path or copied from a stored block, 8 per 8-byte refill of the fast loop
/// (which may consume fewer than 8). Fed one byte at a time the fast loop cannot run (it needs 8
/// bytes of input at hand), so every byte is examined once: the bound is n plus a few bytes of
/// slack. With large pieces the 8-byte refills may overlap, so the bound is 8n.
final class LinearWorkTests: XCTestCase {
    /// Bytes of slack for bookkeeping at the start and end of the stream.
    static let slack = 16

    private func examined(_ bytes: [UInt8], format: DeflateFormat, pieceSize: Int) throws -> Int {
        let run = InflateHarness.run(Chunking.fixed(bytes, size: pieceSize), format: format)
        if let error = run.error { throw error }
        return run.inflater.inputBytesExamined
    }

    func testOneByteFeedingOfA240KBPhotoStreamExaminesEachByteOnce() throws {
        let fixture = try DeflateFixture.named("png_rgba16_photo.zlib")
        let bytes = try fixture.bytes()
        XCTAssertGreaterThanOrEqual(bytes.count, 100_000)
        let count = try examined(bytes, format: .zlib, pieceSize: 1)
        XCTAssertLessThanOrEqual(count, bytes.count + Self.slack)
        XCTAssertGreaterThanOrEqual(count, bytes.count - Self.slack, "every byte must be read")
    }

    func testOneByteFeedingOfStoredTextExaminesEachByteOnce() throws {
        let bytes = try DeflateFixture.named("text_level0.zlib").bytes()
        let count = try examined(bytes, format: .zlib, pieceSize: 1)
        XCTAssertLessThanOrEqual(count, bytes.count + Self.slack)
    }

    func testOneByteFeedingOfMultiMemberGzipExaminesEachByteOnce() throws {
        let bytes = try DeflateFixture.named("gzip_two_members.gz").bytes()
        let count = try examined(bytes, format: .gzip, pieceSize: 1)
        XCTAssertLessThanOrEqual(count, bytes.count + 2 * Self.slack)
    }

    func testAnyChunkingExaminesAtMostEightTimesTheInput() throws {
        for name in ["png_photo_900x600_adam7.zlib", "text_level9.zlib", "zeros_1mb_level9.zlib", "random_level6.zlib"] {
            let bytes = try DeflateFixture.named(name).bytes()
            for pieceSize in [7, 64, 4096, bytes.count] {
                let count = try examined(bytes, format: .zlib, pieceSize: pieceSize)
                XCTAssertLessThanOrEqual(count, 8 * bytes.count + Self.slack, "\(name) in \(pieceSize)-byte pieces")
                XCTAssertGreaterThanOrEqual(count, bytes.count - Self.slack, "\(name) in \(pieceSize)-byte pieces")
            }
        }
    }
}
