import XCTest
import Deflate
import TestSupport

/// Checks of dynamic-block code descriptions (RFC 1951 3.2.2, 3.2.7): over-subscribed and
/// incomplete codes, bad run-length repeats, HLIT/HDIST out of range; and the edge cases the
/// RFC allows (one distance code, no distance codes).
final class HuffmanCodeErrorTests: XCTestCase {
    func testOversubscribedCodeLengthCodeIsOversubscribedCode() {
        // HCLEN 4: symbols 16, 17, 18 each get 1 bit: three codes of one bit cannot exist.
        var w = TestBitWriter()
        w.blockHeader(final: true, type: 2)
        w.bits(0, 5)
        w.bits(0, 5)
        w.bits(0, 4)
        for length in [1, 1, 1, 0] { w.bits(length, 3) }
        w.bits(0, 32)
        assertInflateFails(w.finished, format: .raw, kind: .oversubscribedCode, offsets: 0...6)
    }

    func testOversubscribedLiteralLengthCodeIsOversubscribedCode() {
        var w = TestBitWriter()
        DynamicHeaderWriter.write(&w, literalLengths: [Int](repeating: 1, count: 257), distanceLengths: [1])
        w.bits(0, 16)
        assertInflateFails(w.finished, format: .raw, kind: .oversubscribedCode)
    }

    func testOversubscribedDistanceCodeIsOversubscribedCode() {
        var w = TestBitWriter()
        DynamicHeaderWriter.write(&w, literalLengths: DynamicHeaderWriter.lengths(257, [0x61: 1, 256: 1]),
                                  distanceLengths: [1, 1, 1])
        w.bits(0, 16)
        assertInflateFails(w.finished, format: .raw, kind: .oversubscribedCode)
    }

    func testIncompleteCodeLengthCodeIsIncompleteCode() {
        // HCLEN 4: symbols 18 and 0 get 2 bits each: half the code space is unused.
        var w = TestBitWriter()
        w.blockHeader(final: true, type: 2)
        w.bits(0, 5)
        w.bits(0, 5)
        w.bits(0, 4)
        for length in [0, 0, 2, 2] { w.bits(length, 3) }
        w.bits(0, 32)
        assertInflateFails(w.finished, format: .raw, kind: .incompleteCode, offsets: 0...6)
    }

    func testIncompleteLiteralLengthCodeIsIncompleteCode() {
        var w = TestBitWriter()
        DynamicHeaderWriter.write(&w, literalLengths: DynamicHeaderWriter.lengths(257, [0x61: 2, 256: 2]),
                                  distanceLengths: [1, 1])
        w.bits(0, 16)
        assertInflateFails(w.finished, format: .raw, kind: .incompleteCode)
    }

    func testIncompleteDistanceCodeWithTwoCodesIsIncompleteCode() {
        var w = TestBitWriter()
        DynamicHeaderWriter.write(&w, literalLengths: DynamicHeaderWriter.lengths(257, [0x61: 1, 256: 1]),
                                  distanceLengths: [2, 2])
        w.bits(0, 16)
        assertInflateFails(w.finished, format: .raw, kind: .incompleteCode)
    }

    func testSingleOneBitDistanceCodeIsAllowed() {
        // RFC 1951 3.2.7: one distance code is sent with one bit, one code unused.
        // Literal/length: 257 → "0", 'a' → "10", end-of-block → "11".
        var w = TestBitWriter()
        DynamicHeaderWriter.write(&w, literalLengths: DynamicHeaderWriter.lengths(258, [0x61: 2, 256: 2, 257: 1]),
                                  distanceLengths: [1])
        w.huffman(0b10, 2)   // 'a'
        w.huffman(0b0, 1)    // length 3
        w.huffman(0b0, 1)    // distance 1
        w.huffman(0b11, 2)   // end of block
        let run = InflateHarness.run(w.finished, format: .raw)
        XCTAssertNil(run.error)
        XCTAssertEqual(run.output, Array("aaaa".utf8))
    }

    func testNoDistanceCodesAreAllowedForLiteralOnlyBlocks() {
        // RFC 1951 3.2.7: "One distance code of zero bits means that there are no distance codes used".
        var w = TestBitWriter()
        DynamicHeaderWriter.write(&w, literalLengths: DynamicHeaderWriter.lengths(257, [0x61: 1, 256: 1]),
                                  distanceLengths: [0])
        w.huffman(0, 1)
        w.huffman(0, 1)
        w.huffman(1, 1)
        let run = InflateHarness.run(w.finished, format: .raw)
        XCTAssertNil(run.error)
        XCTAssertEqual(run.output, Array("aa".utf8))
    }

    func testRepeatCode16AsFirstLengthIsInvalidCodeLengths() {
        var w = TestBitWriter()
        DynamicHeaderWriter.write(&w, hlit: 257, hdist: 1, symbols: [(16, 0)] + [(Int, Int)](repeating: (1, 0), count: 255))
        w.bits(0, 16)
        assertInflateFails(w.finished, format: .raw, kind: .invalidCodeLengths, offsets: 0...20)
    }

    func testZeroRepeatRunningPastTheEndIsInvalidCodeLengths() {
        // 257 + 1 lengths expected; two code-18 runs of 138 give 276.
        var w = TestBitWriter()
        DynamicHeaderWriter.write(&w, hlit: 257, hdist: 1, symbols: [(18, 127), (18, 127)])
        w.bits(0, 16)
        assertInflateFails(w.finished, format: .raw, kind: .invalidCodeLengths, offsets: 0...20)
    }

    func testPreviousLengthRepeatRunningPastTheEndIsInvalidCodeLengths() {
        // 256 zeros, then length 1 for symbol 256, then 16 repeating it 6 times: 263 > 258.
        var w = TestBitWriter()
        DynamicHeaderWriter.write(&w, hlit: 257, hdist: 1, symbols: [(18, 127), (18, 107), (1, 0), (16, 3)])
        w.bits(0, 16)
        assertInflateFails(w.finished, format: .raw, kind: .invalidCodeLengths, offsets: 0...20)
    }

    func testHLITAbove286IsInvalidCodeLengths() {
        for hlit in [287, 288] {
            var w = TestBitWriter()
            DynamicHeaderWriter.write(&w, hlit: hlit, hdist: 1, symbols: [(18, 127), (18, 127), (18, 3)])
            w.bits(0, 16)
            assertInflateFails(w.finished, format: .raw, kind: .invalidCodeLengths, offsets: 0...3)
        }
    }

    func testHDISTAbove30IsInvalidCodeLengths() {
        for hdist in [31, 32] {
            var w = TestBitWriter()
            DynamicHeaderWriter.write(&w, hlit: 257, hdist: hdist, symbols: [(18, 127), (18, 127), (18, 11)])
            w.bits(0, 16)
            assertInflateFails(w.finished, format: .raw, kind: .invalidCodeLengths, offsets: 0...3)
        }
    }

    func testLiteralLengthCodeWithoutEndOfBlockIsInvalidCodeLengths() {
        var w = TestBitWriter()
        DynamicHeaderWriter.write(&w, literalLengths: DynamicHeaderWriter.lengths(257, [0x61: 1, 0x62: 1]),
                                  distanceLengths: [1])
        w.bits(0, 16)
        assertInflateFails(w.finished, format: .raw, kind: .invalidCodeLengths)
    }

    func testValidHandMadeDynamicBlockDecodes() {
        // Control for the tests above: the same writer with a sound code gives the right bytes.
        // 'a' → "0", 'b' → "10", end-of-block → "11".
        var w = TestBitWriter()
        DynamicHeaderWriter.write(&w, literalLengths: DynamicHeaderWriter.lengths(257, [0x61: 1, 0x62: 2, 256: 2]),
                                  distanceLengths: [1, 1])
        for code in [(0b0, 1), (0b10, 2), (0b0, 1), (0b11, 2)] { w.huffman(code.0, code.1) }
        let run = InflateHarness.run(StreamWrapping.zlib(w.finished, output: Array("aba".utf8)), format: .zlib)
        XCTAssertNil(run.error)
        XCTAssertEqual(run.output, Array("aba".utf8))
    }
}
