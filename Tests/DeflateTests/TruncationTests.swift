import XCTest
import Deflate
import TestSupport

/// A stream cut short feeds without error (more may come) and `finish()` reports `truncated`;
/// the output delivered so far is a prefix of the real output.
final class TruncationTests: XCTestCase {
    /// Feeds each prefix of a fixture (every length up to `dense`, then `sampled` evenly spaced
    /// lengths) and checks feed accepts it, finish throws truncated, and the output is a prefix.
    private func assertEveryPrefixIsTruncated(_ name: String, dense: Int = 64, sampled: Int = 60,
                                              file: StaticString = #filePath, line: UInt = #line) throws {
        let fixture = try DeflateFixture.named(name)
        let bytes = try fixture.bytes()
        let full = try Inflater.decompress(bytes, format: fixture.format)
        var lengths = Set(0..<min(dense, bytes.count))
        for i in 0..<sampled { lengths.insert(bytes.count * i / sampled) }
        for cut in [1, 2, 3, 4, 5, 8, 9] where cut <= bytes.count { lengths.insert(bytes.count - cut) }
        for length in lengths.sorted() where length < bytes.count {
            let run = InflateHarness.run([bytes[0..<length]], format: fixture.format)
            XCTAssertEqual(run.inflateError?.kind, .truncated, "\(name) cut at \(length): \(String(describing: run.error))",
                           file: file, line: line)
            XCTAssertEqual(run.inflateError?.offset, length, "\(name) cut at \(length)", file: file, line: line)
            XCTAssertTrue(full.starts(with: run.output), "\(name) cut at \(length): output is not a prefix",
                          file: file, line: line)
            XCTAssertFalse(run.inflater.isFinished, "\(name) cut at \(length)", file: file, line: line)
        }
    }

    func testEveryPrefixOfADynamicZlibStreamIsTruncated() throws { try assertEveryPrefixIsTruncated("text_level6.zlib") }
    func testEveryPrefixOfAStoredZlibStreamIsTruncated() throws { try assertEveryPrefixIsTruncated("text_level0.zlib") }
    func testEveryPrefixOfAnEmptyZlibStreamIsTruncated() throws { try assertEveryPrefixIsTruncated("empty_level6.zlib") }
    func testEveryPrefixOfAGzipWithAllHeaderFieldsIsTruncated() throws {
        try assertEveryPrefixIsTruncated("gzip_all_fields.gz", dense: 80)
    }
    func testEveryPrefixOfAnEmptyGzipIsTruncated() throws { try assertEveryPrefixIsTruncated("empty.gz") }
    func testEveryPrefixOfARawStreamIsTruncated() throws { try assertEveryPrefixIsTruncated("hand_max_distance.deflate") }
    func testEveryPrefixOfAFixedHuffmanStreamIsTruncated() throws {
        try assertEveryPrefixIsTruncated("text_fixed_raw.deflate")
    }
    func testEveryPrefixOfASyncFlushedStreamIsTruncated() throws {
        try assertEveryPrefixIsTruncated("text_sync_flush.zlib", sampled: 200)
    }

    func testStreamCutAtAFlushPointDeliversAllOutputSoFar() throws {
        // After a sync flush every byte compressed so far can be decoded: cutting the stream just
        // after the first flush marker (00 00 FF FF) must deliver the first 1000 bytes.
        let fixture = try DeflateFixture.named("text_sync_flush.zlib")
        let bytes = try fixture.bytes()
        let full = try Inflater.decompress(bytes, format: .zlib)
        guard let marker = (0..<(bytes.count - 3)).first(where: { bytes[$0..<($0 + 4)].elementsEqual([0, 0, 0xFF, 0xFF]) }) else {
            return XCTFail("no flush marker")
        }
        let run = InflateHarness.run([bytes[0..<(marker + 4)]], format: .zlib, finish: false)
        XCTAssertNil(run.error)
        XCTAssertEqual(run.output, Array(full.prefix(1000)))
    }

    func testFinishWithoutAnyInputIsTruncatedAtZero() {
        let inflater = Inflater(format: .gzip)
        XCTAssertThrowsError(try inflater.finish()) { error in
            XCTAssertEqual((error as? InflateError)?.kind, .truncated)
            XCTAssertEqual((error as? InflateError)?.offset, 0)
        }
    }
}
