import XCTest
import Deflate
import TestSupport

/// `maxOutputBytes` stops decompression bombs (1 KB of input → 1 MB of zeros here).
final class OutputLimitTests: XCTestCase {
    func testZlibBombStopsAtTheLimit() throws {
        let bytes = try DeflateFixture.named("zeros_1mb_level9.zlib").bytes()
        let options = InflateOptions(maxOutputBytes: 1000)
        assertInflateFails(bytes, format: .zlib, kind: .outputLimitExceeded, options: options)
        let run = InflateHarness.run(bytes, format: .zlib, options: options)
        XCTAssertLessThanOrEqual(run.output.count, 1000)
    }

    func testGzipBombStopsAtTheLimitInSmallPieces() throws {
        let bytes = try DeflateFixture.named("zeros_1mb.gz").bytes()
        let run = InflateHarness.run(Chunking.fixed(bytes, size: 3), format: .gzip, options: InflateOptions(maxOutputBytes: 50_000))
        XCTAssertEqual(run.inflateError?.kind, .outputLimitExceeded)
        XCTAssertLessThanOrEqual(run.output.count, 50_000)
    }

    func testOutputExactlyAtTheLimitIsAllowed() throws {
        let fixture = try DeflateFixture.named("zeros_1mb_level9.zlib")
        let run = InflateHarness.run(try fixture.bytes(), format: .zlib, options: InflateOptions(maxOutputBytes: fixture.size))
        XCTAssertNil(run.error)
        XCTAssertEqual(run.output.count, fixture.size)
    }

    func testOneByteOverTheLimitIsRejected() throws {
        let fixture = try DeflateFixture.named("zeros_1mb_level9.zlib")
        let run = InflateHarness.run(try fixture.bytes(), format: .zlib, options: InflateOptions(maxOutputBytes: fixture.size - 1))
        XCTAssertEqual(run.inflateError?.kind, .outputLimitExceeded)
    }

    func testLimitCountsAllGzipMembersTogether() throws {
        let fixture = try DeflateFixture.named("gzip_two_members.gz")
        // The first member alone (8000 bytes) fits; both (58 000) do not.
        let run = InflateHarness.run(try fixture.bytes(), format: .gzip, options: InflateOptions(maxOutputBytes: 10_000))
        XCTAssertEqual(run.inflateError?.kind, .outputLimitExceeded)
    }

    func testStoredBlocksRespectTheLimit() throws {
        let run = InflateHarness.run(try DeflateFixture.named("text_level0.zlib").bytes(), format: .zlib,
                                     options: InflateOptions(maxOutputBytes: 10))
        XCTAssertEqual(run.inflateError?.kind, .outputLimitExceeded)
        XCTAssertLessThanOrEqual(run.output.count, 10)
    }
}
