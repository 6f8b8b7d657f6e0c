import XCTest
import Deflate
import TestSupport

/// Pieces shorter than 8 bytes go through the buffered loop (`decodeBufferedTokens`), whole
/// input through the fast loop, and suspicious tokens through the careful twin: on damaged
/// streams all three must stop at the same error, at the same offset, after the same output.
final class SmallPieceTwinTests: XCTestCase {
    func testDamagedStreamsFailAlikeInOneThreeAndWholePieces() throws {
        for name in ["text_level9.zlib", "text_strategy_fixed.zlib", "records_level1.zlib"] {
            let original = try DeflateFixture.named(name).bytes()
            var rng = SeededGenerator(seed: 0x5A11)
            var errorsSeen = 0
            for _ in 0..<25 {
                var damaged = original
                // Past the zlib header, so the damage lands in Huffman data.
                let position = Int.random(in: 2..<(damaged.count - 4), using: &rng)
                damaged[position] ^= UInt8.random(in: 1...255, using: &rng)
                let whole = InflateHarness.run(damaged, format: .zlib)
                guard let wholeError = whole.inflateError else {
                    XCTFail("\(name): damage at \(position) went unnoticed (the Adler-32 must catch it)")
                    continue
                }
                errorsSeen += 1
                for pieceSize in [1, 3] {
                    let pieces = InflateHarness.run(Chunking.fixed(damaged, size: pieceSize), format: .zlib)
                    let context = "\(name) damaged at \(position), \(pieceSize)-byte pieces"
                    XCTAssertEqual(pieces.inflateError?.kind, wholeError.kind, context)
                    XCTAssertEqual(pieces.inflateError?.offset, wholeError.offset, context)
                    XCTAssertEqual(pieces.output.count, whole.output.count, context)
                    XCTAssertTrue(pieces.output == whole.output, context)
                }
            }
            XCTAssertEqual(errorsSeen, 25, name)
        }
    }
}
