import ImageCore
import TestSupport
import WebPCodec
import XCTest

/// The same pixels however the input is split, clean truncation errors at any cut, rows shown
/// as they decode, and O(n) work for one-byte feeding.
final class ChunkingInvarianceTests: XCTestCase {
    /// Every fixture.
    static var decodableNames: [String] { WebPFixtures.names("") }

    func testEveryFileGivesIdenticalPixelsForEveryChunking() throws {
        for name in Self.decodableNames {
            let bytes = try WebPFixtures.bytes(name)
            let whole = try WebPFixtures.decode(bytes)
            let splits: [(String, [ArraySlice<UInt8>])] = [
                ("1", Chunking.fixed(bytes, size: 1)),
                ("7", Chunking.fixed(bytes, size: 7)),
                ("4096", Chunking.fixed(bytes, size: 4096)),
                ("random", Chunking.random(bytes, seed: 0x5EED ^ UInt64(bytes.count), maxSize: 300)),
            ]
            for (label, pieces) in splits {
                XCTAssertEqual(try WebPFixtures.decode(pieces), whole, "\(name) fed in \(label)-byte pieces")
            }
        }
    }

    func testTruncationAtEveryPrefixThrowsTruncatedAndKeepsAWholeImage() throws {
        for name in ["lossless_odd_z6.webp", "lossless_palette4.webp", "meta_icc.webp", "lossless_alpha_z3.webp", "lossy_odd.webp", "alpha_m1_best.webp"] {
            let bytes = try WebPFixtures.bytes(name)
            let full = try WebPFixtures.decode(bytes)
            var sizeKnown = false
            // Every cut in the first 200 bytes (RIFF, VP8X, metadata, VP8L header and codes), then 150 spread over the rest.
            var cuts = Array(0..<min(200, bytes.count))
            cuts += stride(from: 200, to: bytes.count, by: max(1, (bytes.count - 200) / 150))
            for cut in cuts {
                let decoder = WebPDecoder()
                try decoder.feed(Array(bytes[..<cut]))
                if decoder.status.isComplete {
                    // Only the chunk's last bytes after the final symbol (and padding) may be missing.
                    XCTAssertGreaterThan(cut, bytes.count - 8, "\(name) complete at cut \(cut)")
                    XCTAssertEqual(try decoder.finish(), full)
                    continue
                }
                XCTAssertThrowsError(try decoder.finish(), "\(name) cut at \(cut)") { error in
                    XCTAssertEqual((error as? ImageDecodingError)?.kind, .truncated, "\(name) cut at \(cut)")
                    XCTAssertEqual((error as? ImageDecodingError)?.offset, cut, "\(name) cut at \(cut)")
                }
                XCTAssertEqual(WebPFixtures.errorKind { _ = try decoder.finish() }, .truncated, "sticky")
                if let partial = decoder.currentImage() {
                    sizeKnown = true
                    XCTAssertEqual(partial.width, full.width)
                    XCTAssertEqual(partial.height, full.height)
                    XCTAssertEqual(partial.format, full.format)
                } else {
                    XCTAssertFalse(sizeKnown, "\(name): the image disappeared at cut \(cut)")
                }
            }
            XCTAssertTrue(sizeKnown)
        }
    }

    func testRowsAppearAsTheyDecodeAndAreFinal() throws {
        let name = "lossless_large.webp"
        let bytes = try WebPFixtures.bytes(name)
        let full = try WebPFixtures.decode(bytes)
        let decoder = WebPDecoder()
        var lastRows = 0
        var generations = Set<Int>()
        for piece in Chunking.fixed(bytes, size: 2048) {
            try decoder.feed(piece)
            let rows = decoder.status.progress?.completedRows ?? 0
            XCTAssertGreaterThanOrEqual(rows, lastRows)
            if rows > lastRows, rows < full.height {
                let partial = try XCTUnwrap(decoder.currentImage())
                let rowBytes = full.bytesPerRow
                XCTAssertEqual(partial.pixels[..<(rows * rowBytes)], full.pixels[..<(rows * rowBytes)])
                XCTAssertTrue(partial.pixels[(rows * rowBytes)...].allSatisfy { $0 == 0 }, "rows not decoded are blank")
            }
            lastRows = rows
            generations.insert(decoder.status.previewGeneration)
        }
        XCTAssertTrue(decoder.status.isComplete)
        XCTAssertEqual(lastRows, full.height)
        XCTAssertGreaterThan(generations.count, 10, "previews while the 42 KB file arrives in 2 KB pieces")
    }

    func testOneByteFeedingExaminesEachByteAboutOnce() throws {
        for name in ["lossless_large.webp", "lossless_large_fast.webp", "lossless_palette200.webp", "meta_icc.webp", "lossy_large.webp", "alpha_noise.webp"] {
            let bytes = try WebPFixtures.bytes(name)
            let decoder = WebPDecoder()
            for piece in Chunking.fixed(bytes, size: 1) { try decoder.feed(piece) }
            _ = try decoder.finish()
            // Header retries cost at most twice the header; pixel data is read once.
            XCTAssertLessThanOrEqual(decoder.inputBytesExamined, 3 * bytes.count, name)
            XCTAssertGreaterThanOrEqual(decoder.inputBytesExamined, bytes.count - 8, name)
        }
    }
}
