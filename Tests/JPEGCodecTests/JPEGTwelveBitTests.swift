import XCTest
import ImageCore
import JPEGCodec
import TestSupport

/// 12-bit JPEG (SOF1/SOF2 precision 12) decodes to libjpeg-turbo 3's 12-bit output: rgb16/gray16
/// holding the 12-bit values, for every chunking.
final class JPEGTwelveBitTests: XCTestCase {
    func testTwelveBitCorpusFilesMatchLibjpegTurbo3ForEveryChunking() throws {
        let entries = try CorpusManifest.load().files.filter {
            $0.isJPEG && $0.expect == "decode" && $0.optional == "12-bit precision"
        }
        XCTAssertEqual(entries.count, 4)
        var failures: [String] = []
        for (index, entry) in entries.enumerated() {
            let bytes = try CorpusManifest.bytes(of: entry)
            let chunkings = JPEGReferenceChecks.chunkings(bytes, seed: UInt64(index) &+ 0x12B1)
            failures += JPEGReferenceChecks.mismatches(entry, bytes: bytes, chunkings: chunkings)
            let image = try JPEGDecoder().decode(bytes)
            XCTAssertEqual(image.format, .rgb16, entry.path)
        }
        XCTAssertEqual(failures, [])
    }
}
