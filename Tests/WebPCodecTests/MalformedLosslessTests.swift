import ImageCore
import TestSupport
import WebPCodec
import XCTest

/// Broken VP8L bitstreams give clean errors, whole or fed in pieces; mutations never trap.
final class MalformedLosslessTests: XCTestCase {
    /// Writes bits least significant first, as VP8L reads them.
    struct BitWriter {
        var bytes: [UInt8] = []
        var bitCount = 0
        mutating func write(_ value: Int, _ count: Int) {
            for i in 0..<count {
                if bitCount % 8 == 0 { bytes.append(0) }
                if value >> i & 1 == 1 { bytes[bytes.count - 1] |= UInt8(1 << (bitCount % 8)) }
                bitCount += 1
            }
        }
    }

    /// A VP8L file for a `width × height` image whose bitstream after the header is `body`.
    static func vp8lFile(width: Int, height: Int, _ body: (inout BitWriter) -> Void) -> [UInt8] {
        var writer = BitWriter()
        writer.write(0x2F, 8)
        writer.write(width - 1, 14)
        writer.write(height - 1, 14)
        writer.write(0, 1)  // alpha hint
        writer.write(0, 3)  // version
        body(&writer)
        return RIFFBuilder.file(RIFFBuilder.chunk("VP8L", writer.bytes))
    }

    func testEmptyCodeLengthCodeIsInvalidData() {
        let file = Self.vp8lFile(width: 2, height: 2) { w in
            w.write(0, 1)  // no transform
            w.write(0, 1)  // no colour cache
            w.write(0, 1)  // no meta codes
            w.write(0, 1)  // green: normal code
            w.write(0, 4)  // 4 code-length code lengths...
            w.write(0, 12) // ...all zero: no code at all
            w.write(0, 32)
        }
        let decoder = WebPDecoder()
        XCTAssertThrowsError(try decoder.feed(file)) { error in
            let error = error as? ImageDecodingError
            XCTAssertEqual(error?.kind, .invalidData)
            XCTAssertEqual(error?.offset, 25, "after the 5-byte VP8L header, where the codes start")
        }
        XCTAssertNotNil(decoder.currentImage(), "the size was known before the error")
    }

    func testOversubscribedCodeIsInvalidData() {
        let file = Self.vp8lFile(width: 2, height: 2) { w in
            w.write(0, 3)  // no transform, cache or meta codes
            w.write(0, 1)  // green: normal code
            w.write(1, 4)  // 5 code-length code lengths (symbols 17, 18, 0, 1, 2)
            for _ in 0..<5 { w.write(1, 3) }  // five codes of length 1: over-subscribed
            w.write(0, 32)
        }
        XCTAssertEqual(WebPFixtures.errorKind { _ = try WebPFixtures.decode(file) }, .invalidData)
    }

    func testRepeatedTransformIsInvalidData() {
        let file = Self.vp8lFile(width: 2, height: 2) { w in
            w.write(1, 1); w.write(2, 2)  // subtract green
            w.write(1, 1); w.write(2, 2)  // subtract green again
            w.write(0, 32)
        }
        XCTAssertEqual(WebPFixtures.errorKind { _ = try WebPFixtures.decode(file) }, .invalidData)
    }

    func testOneSymbolCodesReadNoBits() {
        // Every code has a single symbol, so each pixel costs 0 bits (RFC 9649 3.7.2.1.1, libwebp):
        // 4 pixels of literal 0 from a payload that ends right after the codes.
        let file = Self.vp8lFile(width: 2, height: 2) { w in
            w.write(0, 3)  // no transform, cache or meta codes
            w.write(1, 1); w.write(0, 1); w.write(1, 1); w.write(0, 8)  // green: simple, one 8-bit symbol 0
            for _ in 0..<4 { w.write(1, 1); w.write(0, 1); w.write(0, 1); w.write(0, 1) }  // red, blue, alpha, distance: one 1-bit symbol 0
        }
        XCTAssertEqual(try WebPFixtures.decode(file).pixels, [UInt8](repeating: 0, count: 12))
    }

    func testDataEndingInsideThePixelsIsInvalidDataWhenTheChunkIsComplete() throws {
        // A whole file whose VP8L chunk is cut short (and the RIFF size fixed): not truncation
        // of the input, but a chunk that is too short.
        let bytes = try WebPFixtures.bytes("lossless_odd_z6.webp")
        let payload = Array(bytes[20..<(bytes.count - 200)])
        let file = RIFFBuilder.file(RIFFBuilder.chunk("VP8L", payload))
        let decoder = WebPDecoder()
        XCTAssertThrowsError(try decoder.feed(file)) { error in
            XCTAssertEqual((error as? ImageDecodingError)?.kind, .invalidData)
        }
        let partial = try XCTUnwrap(decoder.currentImage())
        XCTAssertGreaterThan(decoder.status.progress?.completedRows ?? 0, 0, "rows before the damage stay")
        XCTAssertEqual(partial.width, 67)
    }

    func testAChunkCutShortKeepsTheSameFinalRowsForEveryChunking() throws {
        // The pixel loop checks its per-pixel conditions once per stretch of pixels and the bit
        // reader's overrun once per pixel: whatever the pieces, the rows kept before the end of
        // a VP8L chunk cut short are the same, and they are the complete image's rows.
        let bytes = try WebPFixtures.bytes("lossless_odd_z6.webp")
        let complete = try WebPFixtures.decode(bytes)
        let rowBytes = complete.width * complete.format.bytesPerPixel
        var rowCounts: Set<Int> = []
        for cut in [200, 700, 1500] {
            let file = RIFFBuilder.file(RIFFBuilder.chunk("VP8L", Array(bytes[20..<(bytes.count - cut)])))
            var kept: [Int] = []
            for pieces in [[file[...]], Chunking.fixed(file, size: 1), Chunking.fixed(file, size: 7),
                           Chunking.random(file, seed: UInt64(cut), maxSize: 300)] {
                let decoder = WebPDecoder()
                XCTAssertEqual(WebPFixtures.errorKind { for piece in pieces { try decoder.feed(Array(piece)) } },
                               .invalidData, "cut \(cut)")
                let rows = decoder.status.progress?.completedRows ?? 0
                let partial = try XCTUnwrap(decoder.currentImage())
                XCTAssertEqual(partial.pixels[..<(rows * rowBytes)], complete.pixels[..<(rows * rowBytes)], "cut \(cut)")
                kept.append(rows)
            }
            XCTAssertEqual(Set(kept).count, 1, "cut \(cut): rows kept \(kept)")
            XCTAssertGreaterThan(kept[0], 0, "cut \(cut)")
            XCTAssertLessThan(kept[0], complete.height, "cut \(cut)")
            rowCounts.insert(kept[0])
        }
        XCTAssertEqual(rowCounts.count, 3, "each cut keeps a different number of rows")
    }

    func testMutatedFilesNeverTrapAndAgreeAcrossChunkings() throws {
        let names = ["lossless_odd_z6.webp", "lossless_palette11.webp", "lossless_alpha_z9.webp", "meta_icc.webp",
                     "lossless_gradient_q100_m6.webp"]
        try Self.assertMutationsAgreeAcrossChunkings(names.map { "webp/files/" + $0 }, seed: 0xBADC0DE, perFile: 150)
    }

    /// Flips 1–4 random bits `perFile` times in each file: whole and 7-byte feeding must give the
    /// same image or error kind, never `internal` (and never trap).
    static func assertMutationsAgreeAcrossChunkings(_ paths: [String], seed: UInt64, perFile: Int,
                                                    file: StaticString = #filePath, line: UInt = #line) throws {
        var rng = SeededGenerator(seed: seed)
        for path in paths {
            let original = try Fixtures.bytes(path)
            for _ in 0..<perFile {
                var bytes = original
                for _ in 0..<Int.random(in: 1...4, using: &rng) {
                    let at = Int.random(in: 0..<bytes.count, using: &rng)
                    bytes[at] ^= UInt8(1 << Int.random(in: 0..<8, using: &rng))
                }
                let whole = outcome([bytes[...]])
                XCTAssertEqual(whole, outcome(Chunking.fixed(bytes, size: 7)), "\(path): outcome depends on chunking",
                               file: file, line: line)
                if case .failure(let kind) = whole { XCTAssertNotEqual(kind, .internal, path, file: file, line: line) }
            }
        }
    }

    enum Outcome: Equatable {
        case image(sha256: String)
        case failure(ImageDecodingError.Kind)
    }

    static func outcome(_ pieces: [ArraySlice<UInt8>]) -> Outcome {
        do {
            return .image(sha256: Digest.sha256(try WebPFixtures.decode(pieces).pixels))
        } catch {
            return .failure((error as? ImageDecodingError)?.kind ?? .internal)
        }
    }
}

