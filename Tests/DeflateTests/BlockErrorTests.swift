import XCTest
import Deflate
import TestSupport

/// Block-level checks of RFC 1951: block type, stored lengths, symbols and distances.
final class BlockErrorTests: XCTestCase {
    func testBlockType3IsInvalidBlockType() {
        var w = TestBitWriter()
        w.blockHeader(final: true, type: 3)
        assertInflateFails(w.finished, format: .raw, kind: .invalidBlockType, offsets: 0...0)
    }

    func testBlockType3AfterAValidBlockIsFoundWhereItIs() {
        // A non-final stored block of 4 bytes (bytes 0–8), then a block of type 3 at byte 9.
        var w = TestBitWriter()
        w.blockHeader(final: false, type: 0)
        w.append([4, 0, 0xFB, 0xFF, 1, 2, 3, 4])
        w.blockHeader(final: true, type: 3)
        let error = assertInflateFails(w.finished, format: .raw, kind: .invalidBlockType, offsets: 9...9)
        XCTAssertNotNil(error)
        // Whatever came before the error was delivered.
        XCTAssertEqual(InflateHarness.run(w.finished, format: .raw).output, [1, 2, 3, 4])
    }

    func testBlockType3InZlibIsFoundAfterTheHeader() {
        let stream: [UInt8] = [0x78, 0x9C, 0x07]
        assertInflateFails(stream, format: .zlib, kind: .invalidBlockType, offsets: 2...2)
    }

    func testStoredLengthNotMatchingItsComplementIsStoredLengthMismatch() {
        var w = TestBitWriter()
        w.blockHeader(final: true, type: 0)
        w.append([5, 0, 0xFA, 0xFE, 1, 2, 3, 4, 5])   // NLEN should be FA FF
        assertInflateFails(w.finished, format: .raw, kind: .storedLengthMismatch, offsets: 0...4)
    }

    func testDistanceBeyondAnyOutputIsDistanceTooFar() {
        // Fixed block whose first token is a match: length 3 (257), distance 1 (symbol 0).
        var w = TestBitWriter()
        w.blockHeader(final: true, type: 1)
        w.fixedLiteralLength(257)
        w.fixedDistance(0)
        w.fixedLiteralLength(256)
        assertInflateFails(w.finished, format: .raw, kind: .distanceTooFar, offsets: 0...2)
    }

    func testDistanceOneBeyondTheOutputIsDistanceTooFar() {
        // "ab" then a match at distance 3 (symbol 2): one byte too far back.
        var w = TestBitWriter()
        w.blockHeader(final: true, type: 1)
        w.fixedLiteralLength(0x61)
        w.fixedLiteralLength(0x62)
        w.fixedLiteralLength(257)
        w.fixedDistance(2)
        w.fixedLiteralLength(256)
        assertInflateFails(w.finished, format: .raw, kind: .distanceTooFar, offsets: 0...5)
    }

    func testDistanceReachingExactlyTheFirstByteIsAllowed() {
        var w = TestBitWriter()
        w.blockHeader(final: true, type: 1)
        w.fixedLiteralLength(0x61)
        w.fixedLiteralLength(0x62)
        w.fixedLiteralLength(257)
        w.fixedDistance(1)   // distance 2
        w.fixedLiteralLength(256)
        let run = InflateHarness.run(w.finished, format: .raw)
        XCTAssertNil(run.error)
        XCTAssertEqual(run.output, Array("ababa".utf8))
    }

    func testDistanceTooFarIsCaughtInTheFastLoopToo() {
        // 600 literals (enough input for the fast loop) then a match at distance 601+.
        var w = TestBitWriter()
        w.blockHeader(final: true, type: 1)
        for i in 0..<600 { w.fixedLiteralLength(i % 200) }
        w.fixedLiteralLength(257)
        w.fixedDistance(19)     // distances 769–1024
        w.bits(0, 8)
        for _ in 0..<40 { w.fixedLiteralLength(0x41) }
        w.fixedLiteralLength(256)
        let error = assertInflateFails(w.finished, format: .raw, kind: .distanceTooFar)
        XCTAssertNotNil(error)
        XCTAssertGreaterThanOrEqual(error?.offset ?? 0, 600)
        XCTAssertEqual(InflateHarness.run(w.finished, format: .raw).output.count, 600)
    }

    func testLiteralLengthSymbol286InAFixedBlockIsInvalidSymbol() {
        var w = TestBitWriter()
        w.blockHeader(final: true, type: 1)
        w.fixedLiteralLength(0x61)
        w.fixedLiteralLength(286)
        w.fixedLiteralLength(256)
        assertInflateFails(w.finished, format: .raw, kind: .invalidSymbol, offsets: 0...3)
    }

    func testLiteralLengthSymbol287InAFixedBlockIsInvalidSymbol() {
        var w = TestBitWriter()
        w.blockHeader(final: true, type: 1)
        w.fixedLiteralLength(287)
        w.fixedLiteralLength(256)
        assertInflateFails(w.finished, format: .raw, kind: .invalidSymbol, offsets: 0...2)
    }

    func testDistanceSymbol30IsInvalidSymbol() {
        var w = TestBitWriter()
        w.blockHeader(final: true, type: 1)
        w.fixedLiteralLength(0x61)
        w.fixedLiteralLength(257)
        w.fixedDistance(30)
        w.fixedLiteralLength(256)
        assertInflateFails(w.finished, format: .raw, kind: .invalidSymbol, offsets: 0...3)
    }

    func testDistanceSymbol31IsInvalidSymbol() {
        var w = TestBitWriter()
        w.blockHeader(final: true, type: 1)
        w.fixedLiteralLength(0x61)
        w.fixedLiteralLength(257)
        w.fixedDistance(31)
        w.fixedLiteralLength(256)
        assertInflateFails(w.finished, format: .raw, kind: .invalidSymbol, offsets: 0...3)
    }

    func testInvalidSymbolInTheFastLoopIsCaught() {
        var w = TestBitWriter()
        w.blockHeader(final: true, type: 1)
        for i in 0..<500 { w.fixedLiteralLength(i % 250) }
        w.fixedLiteralLength(258)   // length 4
        w.fixedDistance(31)
        for _ in 0..<40 { w.fixedLiteralLength(0x41) }
        w.fixedLiteralLength(256)
        assertInflateFails(w.finished, format: .raw, kind: .invalidSymbol, offsets: 500...600)
    }

    func testErrorsAreSticky() {
        var w = TestBitWriter()
        w.blockHeader(final: true, type: 3)
        let inflater = Inflater(format: .raw)
        var first: InflateError?
        XCTAssertThrowsError(try inflater.feed(w.finished) { _ in }) { first = $0 as? InflateError }
        XCTAssertEqual(first?.kind, .invalidBlockType)
        XCTAssertThrowsError(try inflater.feed([0x03, 0x00]) { _ in }) { XCTAssertEqual($0 as? InflateError, first) }
        XCTAssertThrowsError(try inflater.finish()) { XCTAssertEqual($0 as? InflateError, first) }
    }
}
