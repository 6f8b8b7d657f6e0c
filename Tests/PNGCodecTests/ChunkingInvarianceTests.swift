import ImageCore
import PNGCodec
import TestSupport
import XCTest

/// The same pixels however the input is split, and clean truncation errors at any cut.
final class ChunkingInvarianceTests: XCTestCase {
    /// Files fed one byte at a time here; the 1 MB Adam7 photo gets its own one-byte test
    /// (`ResumableWorkTests`), which also checks its final hash.
    private static let oneByteSizeLimit = 300_000

    func testEveryDecodableFileGivesIdenticalPixelsForEveryChunking() throws {
        for entry in try PNGTestSupport.decodableEntries() {
            let bytes = try CorpusManifest.bytes(of: entry)
            let whole = try PNGTestSupport.decode(bytes)
            var splits: [(String, [ArraySlice<UInt8>])] = [
                ("7", Chunking.fixed(bytes, size: 7)),
                ("4096", Chunking.fixed(bytes, size: 4096)),
                ("random", Chunking.random(bytes, seed: 0x5EED ^ UInt64(bytes.count), maxSize: 700)),
            ]
            if bytes.count <= Self.oneByteSizeLimit { splits.append(("1", Chunking.fixed(bytes, size: 1))) }
            for (name, pieces) in splits {
                let image = try PNGTestSupport.decode(pieces)
                XCTAssertEqual(image, whole, "\(entry.path) fed in \(name)-byte pieces")
            }
        }
    }

    /// A byte fed alone short of the next hand-over point waits in code inlined into the caller
    /// (`PNGDecoder.feed`); after a failure, from a feed or from `finish`, no byte may wait
    /// there: every later feed throws the same error.
    func testSingleBytesAfterAFailureThrowTheSameError() throws {
        let bytes = try Fixtures.bytes("corpus/png/extras/rgba16_photo.png")
        // Cut in the middle of the image data, with bytes waiting and exactly at a hand-over point
        // (a multiple of this file's 256-byte granule: nothing waits, so `finish()` hands nothing
        // over): finish throws, then bytes that would have waited.
        let cut = bytes.count / 2
        for end in [cut, cut & ~255] {
            let truncated = PNGDecoder()
            for byte in bytes[..<end] { try truncated.feed([byte]) }
            var finishError: ImageDecodingError?
            XCTAssertThrowsError(try truncated.finish()) { finishError = $0 as? ImageDecodingError }
            XCTAssertEqual(finishError?.kind, .truncated)
            for byte in bytes[end..<(end + 3)] {
                XCTAssertThrowsError(try truncated.feed([byte]), "cut at \(end)") { error in
                    XCTAssertEqual(error as? ImageDecodingError, finishError)
                }
            }
        }
        // A damaged IDAT byte: the error comes from some feed; the bytes after it throw it again.
        var damaged = bytes
        damaged[cut] ^= 0x55
        let decoder = PNGDecoder()
        var failedAt: Int?
        var firstError: ImageDecodingError?
        for index in damaged.indices {
            do {
                try decoder.feed([damaged[index]])
            } catch {
                failedAt = index
                firstError = error as? ImageDecodingError
                break
            }
        }
        let failure = try XCTUnwrap(failedAt, "the damaged byte must fail the decode")
        XCTAssertNotNil(firstError)
        for index in (failure + 1)..<min(failure + 300, damaged.count) {
            XCTAssertThrowsError(try decoder.feed([damaged[index]])) { error in
                XCTAssertEqual(error as? ImageDecodingError, firstError, "byte \(index)")
            }
        }
    }

    func testTruncationAtManyPrefixesThrowsTruncatedAndKeepsAWholeImage() throws {
        let names = ["pngsuite/basn2c08.png", "pngsuite/basi3p02.png", "pngsuite/basn0g16.png",
                     "extras/idat_varied_and_empty_chunks.png", "extras/rgba16_photo_interlaced.png"]
        for name in names {
            let bytes = try Fixtures.bytes("corpus/png/" + name)
            let full = try PNGTestSupport.decode(bytes)
            // Every cut in the first 100 bytes (signature, IHDR, first chunk headers), then 60 spread over the rest.
            var cuts = Array(0..<min(100, bytes.count))
            cuts += stride(from: 100, to: bytes.count, by: max(1, (bytes.count - 100) / 60))
            for cut in cuts {
                let decoder = PNGDecoder()
                try decoder.feed(Array(bytes[..<cut]))
                XCTAssertThrowsError(try decoder.finish(), "\(name) cut at \(cut)") { error in
                    XCTAssertEqual((error as? ImageDecodingError)?.kind, .truncated, "\(name) cut at \(cut)")
                    XCTAssertEqual((error as? ImageDecodingError)?.offset, cut, "\(name) cut at \(cut)")
                }
                if cut >= 33 { // signature (8) + IHDR chunk (25): the size is known
                    let partial = try XCTUnwrap(decoder.currentImage(), "\(name) cut at \(cut)")
                    XCTAssertEqual(partial.width, full.width)
                    XCTAssertEqual(partial.height, full.height)
                    XCTAssertEqual(partial.pixels.count, full.pixels.count, "\(name) cut at \(cut)")
                } else {
                    XCTAssertNil(decoder.currentImage(), "\(name) cut at \(cut)")
                }
                // Sticky: the same error again.
                XCTAssertEqual(PNGTestSupport.errorKind { try decoder.finish() }, .truncated)
            }
        }
    }

    func testRowsDecodedBeforeATruncationAreTheFinalRows() throws {
        let bytes = try Fixtures.bytes("corpus/png/pngsuite/basn2c08.png")
        let full = try PNGTestSupport.decode(bytes)
        let decoder = PNGDecoder()
        try decoder.feed(Array(bytes[..<(bytes.count * 2 / 3)]))
        let rows = try XCTUnwrap(decoder.status.progress?.completedRows)
        XCTAssertGreaterThan(rows, 0)
        XCTAssertLessThan(rows, full.height)
        let partial = try XCTUnwrap(decoder.currentImage())
        let rowBytes = full.bytesPerRow
        XCTAssertEqual(partial.pixels[..<(rows * rowBytes)], full.pixels[..<(rows * rowBytes)])
        XCTAssertTrue(partial.pixels[(rows * rowBytes)...].allSatisfy { $0 == 0 }, "rows not received are blank")
    }
}
