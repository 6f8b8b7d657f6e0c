import XCTest
import Deflate
import TestSupport

/// However the input is cut, the output is the same bytes (ARCHITECTURE: resumable decoding).
final class ChunkingInvarianceTests: XCTestCase {
    /// One-byte feeding costs one call per byte: keep it to fixtures of moderate size so the
    /// debug-build suite stays fast (the 1 MB photo stream is covered by larger pieces).
    static let largestInputForTinyPieces = 200_000

    private func assertIdenticalOutput(pieceSize: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        for fixture in try DeflateFixture.all() {
            let bytes = try fixture.bytes()
            if pieceSize < 8 && bytes.count > Self.largestInputForTinyPieces { continue }
            let run = InflateHarness.run(Chunking.fixed(bytes, size: pieceSize), format: fixture.format)
            XCTAssertNil(run.error, "\(fixture.name) in \(pieceSize)-byte pieces: \(String(describing: run.error))",
                         file: file, line: line)
            XCTAssertEqual(run.output.count, fixture.size, "\(fixture.name) in \(pieceSize)-byte pieces",
                           file: file, line: line)
            XCTAssertEqual(Digest.sha256(run.output), fixture.sha256, "\(fixture.name) in \(pieceSize)-byte pieces",
                           file: file, line: line)
        }
    }

    func testOneBytePiecesGiveIdenticalOutput() throws { try assertIdenticalOutput(pieceSize: 1) }
    func testTwoBytePiecesGiveIdenticalOutput() throws { try assertIdenticalOutput(pieceSize: 2) }
    func testSevenBytePiecesGiveIdenticalOutput() throws { try assertIdenticalOutput(pieceSize: 7) }
    func testSixtyFourBytePiecesGiveIdenticalOutput() throws { try assertIdenticalOutput(pieceSize: 64) }
    func testFourKilobytePiecesGiveIdenticalOutput() throws { try assertIdenticalOutput(pieceSize: 4096) }

    func testSeededRandomSplitsGiveIdenticalOutput() throws {
        for fixture in try DeflateFixture.all() {
            let bytes = try fixture.bytes()
            for seed: UInt64 in [1, 2, 3] {
                let maxSize = seed == 1 ? 16 : seed == 2 ? 300 : 9000
                if maxSize == 16 && bytes.count > Self.largestInputForTinyPieces { continue }
                let run = InflateHarness.run(Chunking.random(bytes, seed: seed, maxSize: maxSize), format: fixture.format)
                XCTAssertNil(run.error, "\(fixture.name) seed \(seed): \(String(describing: run.error))")
                XCTAssertEqual(Digest.sha256(run.output), fixture.sha256, "\(fixture.name) seed \(seed)")
            }
        }
    }

    func testEmptyPiecesBetweenRealOnesChangeNothing() throws {
        let fixture = try DeflateFixture.named("gzip_two_members.gz")
        let bytes = try fixture.bytes()
        var pieces: [ArraySlice<UInt8>] = []
        for piece in Chunking.fixed(bytes, size: 100) {
            pieces.append(piece)
            pieces.append(bytes[0..<0])
        }
        let run = InflateHarness.run(pieces, format: fixture.format)
        XCTAssertNil(run.error)
        XCTAssertEqual(Digest.sha256(run.output), fixture.sha256)
    }

    func testOutputArrivesBeforeTheStreamEnds() throws {
        // A progressive loader needs output while input is still arriving: after half of a
        // stored-block stream, at least a third of its output must have been delivered.
        let fixture = try DeflateFixture.named("text_level0.zlib")
        let bytes = try fixture.bytes()
        let run = InflateHarness.run([bytes[0..<(bytes.count / 2)]], format: .zlib, finish: false)
        XCTAssertNil(run.error)
        XCTAssertGreaterThan(run.output.count, fixture.size / 3)
        XCTAssertEqual(run.output, Array(try Inflater.decompress(bytes, format: .zlib).prefix(run.output.count)))
    }

    /// Fed a byte at a time, output of more than two sliding windows (264 KiB each) from a stream
    /// of literal runs and matches: the buffered loop's literal runs (no output check per literal)
    /// and its matches meet the window's end many times, and each time must stop short of it
    /// (a debug build asserts so) with the output unchanged.
    func testOneBytePiecesAcrossManySlidingWindowEnds() throws {
        var rng = SeededGenerator(seed: 0x51DE)
        var text: [UInt8] = []
        while text.count < 600_000 {
            let word = (0..<Int.random(in: 2...9, using: &rng)).map { _ in UInt8.random(in: 97...122, using: &rng) }
            text += word + [UInt8(ascii: " ")]
            // Repeats give matches between the literal runs.
            if text.count > 64, UInt8.random(in: 0...255, using: &rng) < 90 {
                let start = Int.random(in: 0..<(text.count - 40), using: &rng)
                text += text[start..<(start + Int.random(in: 3...40, using: &rng))]
            }
        }
        let stream = Deflater.compress(text, format: .raw, level: 1)
        let run = InflateHarness.run(Chunking.fixed(stream, size: 1), format: .raw)
        XCTAssertNil(run.error)
        XCTAssertEqual(run.output.count, text.count)
        XCTAssertTrue(run.output == text, "output differs")
    }
}
