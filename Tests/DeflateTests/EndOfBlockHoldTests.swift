import XCTest
@testable import Deflate
import TestSupport

/// Fed a byte at a time, an attempt that stops inside a block before the final one, at a token
/// whose bits so far could still be the block's end-of-block codeword (not ruled out), lets wait
/// exactly the bits that must still come before the stream can end: the rest of that codeword
/// (E bits from the token's start), the shortest final block (10 bits) and the trailer, less the
/// 8 of the byte that completes them: `8 * trailer - 8 + 10 + E`, from the stream's own code.
///
/// Why no other term: a token whose buffered bits match the first bits of the end-of-block
/// codeword either has an incomplete codeword, and then the least it takes is the shortest
/// codeword with those bits (zeros appended), never longer than the end-of-block codeword
/// itself, or a complete one, which in a prefix code cannot match the end-of-block codeword's
/// first bits unless it is that codeword. So a pending token that needs more than E bits is
/// always ruled out: the bound never depends on how much the token needs beyond E.
final class EndOfBlockHoldTests: XCTestCase {
    /// Literal/length codewords (first bit first): 'A' 0, end of block 10, 'B' 110, length 3 (257)
    /// 111; distance codewords 1 (symbol 0) and 2 (symbol 1): 0 and 1. The end-of-block codeword
    /// is the first of its length, so a pending 'B' or match seen by its first bit (1) looks like
    /// the end of the block, and the bound is the one for it.
    private static let literalLengths = DynamicHeaderWriter.lengths(258, [65: 1, 256: 2, 66: 3, 257: 3])

    /// A raw stream: a dynamic block (not the last) of `tokens` (0 'A', 1 'B', 2 a match of 3 at
    /// distance 1, 3 at distance 2) after "AB", then an empty fixed-code final block; and its output.
    private func stream(_ tokens: [Int]) -> (deflate: [UInt8], output: [UInt8]) {
        let lengths = EndOfBlockHoldTests.literalLengths
        let canonical = StreamWrapping.canonicalCodes(lengths)
        var writer = TestBitWriter()
        DynamicHeaderWriter.write(&writer, final: false, literalLengths: lengths, distanceLengths: [1, 1])
        var output: [UInt8] = []
        for token in [0, 1] + tokens {
            switch token {
            case 0, 1:
                let letter = 65 + token
                writer.huffman(canonical[letter], lengths[letter])
                output.append(UInt8(letter))
            default:
                writer.huffman(canonical[257], lengths[257])
                writer.bits(token - 2, 1)   // distance symbol 0 (1) or 1 (2), 1-bit codewords
                for _ in 0..<3 { output.append(output[output.count - (token - 1)]) }
            }
        }
        writer.huffman(canonical[256], lengths[256])
        writer.blockHeader(final: true, type: 1)
        writer.fixedLiteralLength(256)
        return (writer.finished, output)
    }

    func testPendingTokenThatMayEndTheBlockHoldsJustTheEndOfBlockAndTheFinalBlock() throws {
        let lengths = EndOfBlockHoldTests.literalLengths
        let eobLength = lengths[256]
        // The end-of-block codeword as it arrives (first bit lowest).
        let eobCode = StreamWrapping.canonicalCodes(lengths)[256]
        let eobBits = (0..<eobLength).reduce(UInt64(0)) { $0 | UInt64((eobCode >> (eobLength - 1 - $1)) & 1) << UInt64($1) }
        var rng = SeededGenerator(seed: 0xE0B)
        var checked = 0
        for streamIndex in 0..<40 {
            let tokens = (0..<(20 + streamIndex)).map { _ in Int(rng.next() % 4) }
            let (deflate, output) = stream(tokens)
            for (format, trailer) in [(DeflateFormat.raw, 0), (.zlib, 4)] {
                let bytes = format == .raw ? deflate : StreamWrapping.zlib(deflate, output: output)
                let context = "stream \(streamIndex), \(format)"
                // The bound the pending token's possible end of the block sets (see above).
                let expected = min(8 * trailer - 8 + Inflater.leastBitsOfAFinalBlock + eobLength, 48)
                let inflater = Inflater(format: format)
                var decoded: [UInt8] = []
                var ends: [Int] = []
                for (index, byte) in bytes.enumerated() {
                    if try inflater.feed([byte], into: { decoded.append(contentsOf: $0) }) == .streamEnd { ends.append(index + 1) }
                    // An attempt stopped (bytes that wait add 8 bits each, more than E) inside the
                    // first block at bits that match the end-of-block codeword's first bits.
                    let count = inflater.bitCount
                    guard inflater.holdBelow > 0, !inflater.isFinalBlock, count < eobLength else { continue }
                    guard (inflater.bitBuffer ^ eobBits) & ((1 << UInt64(count)) - 1) == 0 else { continue }
                    XCTAssertEqual(inflater.holdBelow, expected, "\(context), after byte \(index)")
                    checked += 1
                }
                XCTAssertEqual(ends, [bytes.count], context)
                XCTAssertEqual(decoded, output, context)
            }
        }
        // The case is met often (else this test checks nothing).
        XCTAssertGreaterThan(checked, 100)
    }
}
