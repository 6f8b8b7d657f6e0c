import XCTest
import ImageCore
import JPEGCodec
import TestSupport

/// Every non-optional progressive `expect: decode` JPEG of the corpus decodes to its djpeg
/// reference, however it is fed.
final class JPEGProgressiveConformanceTests: XCTestCase {
    /// Files up to this size are also fed one byte at a time.
    private let oneByteFeedingLimit = 16_000

    func testProgressiveCorpusFilesMatchReferencesForEveryChunking() throws {
        let entries = try JPEGProgressiveCorpus.decodeEntries()
        XCTAssertEqual(entries.count, 22)
        var failures: [String] = []
        for (index, entry) in entries.enumerated() {
            let bytes = try CorpusManifest.bytes(of: entry)
            var chunkings: [(String, [ArraySlice<UInt8>])] = [
                ("whole", [bytes[...]]),
                ("7-byte", Chunking.fixed(bytes, size: 7)),
                ("4096-byte", Chunking.fixed(bytes, size: 4096)),
                ("random", Chunking.random(bytes, seed: UInt64(index) &+ 0x9806, maxSize: 900)),
                ("random small", Chunking.random(bytes, seed: UInt64(index) &+ 0x51, maxSize: 40)),
            ]
            if bytes.count <= oneByteFeedingLimit { chunkings.append(("1-byte", Chunking.fixed(bytes, size: 1))) }
            for (name, pieces) in chunkings {
                do {
                    let image = try JPEGCorpus.decode(pieces)
                    if image.width != entry.reference?.width || image.height != entry.reference?.height {
                        failures.append("\(entry.path) \(name): size \(image.width)×\(image.height)")
                    } else if Digest.sha256(image.pixels) != entry.reference?.sha256 {
                        failures.append("\(entry.path) \(name): pixels differ from the reference")
                    }
                } catch {
                    failures.append("\(entry.path) \(name): \(error)")
                }
            }
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
