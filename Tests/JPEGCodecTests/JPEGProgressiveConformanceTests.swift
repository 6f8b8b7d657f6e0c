import XCTest
import ImageCore
import JPEGCodec
import TestSupport

/// Every non-optional progressive `expect: decode` JPEG of the corpus decodes to its djpeg
/// reference, however it is fed.
final class JPEGProgressiveConformanceTests: XCTestCase {
    func testProgressiveCorpusFilesMatchReferencesForEveryChunking() throws {
        let entries = try JPEGProgressiveCorpus.decodeEntries()
        XCTAssertEqual(entries.count, 22)
        var failures: [String] = []
        for (index, entry) in entries.enumerated() {
            let bytes = try CorpusManifest.bytes(of: entry)
            var chunkings = JPEGReferenceChecks.chunkings(bytes, seed: UInt64(index) &+ 0x9806)
            chunkings.append(("random small", Chunking.random(bytes, seed: UInt64(index) &+ 0x51, maxSize: 40)))
            failures += JPEGReferenceChecks.mismatches(entry, bytes: bytes, chunkings: chunkings)
        }
        XCTAssertEqual(failures, [])
    }

    func testHeaderSaysProgressive() throws {
        let decoder = JPEGDecoder()
        try decoder.feed(try JPEGCorpus.bytes("jpeg/generated/testorig_progressive.jpg"))
        XCTAssertEqual(decoder.header?.isProgressive, true)
        XCTAssertEqual(decoder.header?.width, 227)
    }
}
