import XCTest
import Deflate
import TestSupport

/// Bytes after the end of a stream are an error by default and are counted, not silently
/// dropped, when `rejectTrailingData` is false.
final class TrailingDataTests: XCTestCase {
    private let tolerant = InflateOptions(rejectTrailingData: false)

    func testByteAfterZlibStreamIsTrailingData() throws {
        let bytes = try DeflateFixture.named("text_level6.zlib").bytes()
        assertInflateFails(bytes + [0], format: .zlib, kind: .trailingData, offsets: bytes.count...bytes.count)
    }

    func testBytesAfterRawStreamAreTrailingData() throws {
        let bytes = try DeflateFixture.named("text_raw.deflate").bytes()
        assertInflateFails(bytes + [1, 2, 3], format: .raw, kind: .trailingData, offsets: bytes.count...bytes.count)
    }

    func testNonGzipBytesAfterTheLastMemberAreTrailingData() throws {
        let bytes = try DeflateFixture.named("gzip_two_members.gz").bytes()
        assertInflateFails(bytes + [0, 0, 0, 0], format: .gzip, kind: .trailingData, offsets: bytes.count...bytes.count)
    }

    func testTrailingBytesAreCountedWhenTolerated() throws {
        for (name, extra) in [("text_level6.zlib", 1), ("text_raw.deflate", 100), ("gzip_plain.gz", 7)] {
            let fixture = try DeflateFixture.named(name)
            let bytes = try fixture.bytes()
            let garbage = [UInt8](repeating: 0xA5, count: extra)
            for pieceSize in [1, 5, bytes.count + extra] {
                let run = InflateHarness.run(Chunking.fixed(bytes + garbage, size: pieceSize), format: fixture.format,
                                             options: tolerant)
                XCTAssertNil(run.error, "\(name) in \(pieceSize)-byte pieces")
                XCTAssertEqual(Digest.sha256(run.output), fixture.sha256, "\(name) in \(pieceSize)-byte pieces")
                XCTAssertEqual(run.inflater.trailingByteCount, extra, "\(name) in \(pieceSize)-byte pieces")
            }
        }
    }

    func testTrailingDataInALaterFeedIsStillTrailingData() throws {
        let fixture = try DeflateFixture.named("empty_level6.zlib")
        let inflater = Inflater(format: .zlib)
        XCTAssertEqual(try inflater.feed(try fixture.bytes()) { _ in }, .streamEnd)
        XCTAssertThrowsError(try inflater.feed([0x78]) { _ in }) { error in
            XCTAssertEqual((error as? InflateError)?.kind, .trailingData)
            XCTAssertEqual((error as? InflateError)?.offset, 8)
        }
    }

    func testFeedReportsNeedsInputThenStreamEnd() throws {
        let bytes = try DeflateFixture.named("one_byte.zlib").bytes()
        let inflater = Inflater(format: .zlib)
        XCTAssertEqual(try inflater.feed(Array(bytes.prefix(5))) { _ in }, .needsInput)
        XCTAssertEqual(try inflater.feed(Array(bytes.dropFirst(5))) { _ in }, .streamEnd)
        XCTAssertNoThrow(try inflater.finish())
    }
}
