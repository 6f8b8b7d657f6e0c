import XCTest
import Deflate

/// A byte-alone attempt (`decodeByte`) that stops inside a match keeps the match's bits and a
/// lower bound on what it needs (`holdBelow`). Fed a byte at a time, matches whose byte
/// boundaries fall at every bit position of their length code, length extra bits, distance code
/// and distance extra bits must decode (or fail, with the same kind and offset) exactly as the
/// stream fed whole, with the stream end on the last byte. The same again with the matches in a
/// block that is not the last, followed by the shortest final block there is (10 bits, empty):
/// there more bytes may wait (the final block's 10 bits and, while the pending token cannot be
/// the end of the block, its 7-bit end-of-block code: up to four bytes), never the last.
final class PendingMatchTests: XCTestCase {
    /// One fixed-code raw block: 40 literals, `nineBitLiterals` of them 9-bit codes (which shifts
    /// what follows by that many bits), then the matches (length symbol with its extra bits,
    /// distance symbol with its extra bits), three literals, the end of the block; if that block is
    /// not `final`, an empty fixed-code final block after it.
    private func stream(nineBitLiterals: Int, final: Bool, matches: [(length: Int, lengthExtra: (Int, Int), distance: Int, distanceExtra: (Int, Int))]) -> [UInt8] {
        var writer = TestBitWriter()
        writer.blockHeader(final: final, type: 1)
        for index in 0..<40 { writer.fixedLiteralLength(index < nineBitLiterals ? 200 + index : 97 + index % 26) }
        for match in matches {
            writer.fixedLiteralLength(match.length)
            writer.bits(match.lengthExtra.0, match.lengthExtra.1)
            writer.fixedDistance(match.distance)
            writer.bits(match.distanceExtra.0, match.distanceExtra.1)
        }
        for byte in [120, 121, 122] { writer.fixedLiteralLength(byte) }
        writer.fixedLiteralLength(256)
        if !final {
            writer.blockHeader(final: true, type: 1)
            writer.fixedLiteralLength(256)
        }
        return writer.finished
    }

    func testMatchesCutAtEveryBitFedByteAtATimeDecodeAsWhole() throws {
        // (length symbol, its extra bits (value, count), distance symbol, its extra bits).
        let shapes: [[(length: Int, lengthExtra: (Int, Int), distance: Int, distanceExtra: (Int, Int))]] = [
            [(257, (0, 0), 0, (0, 0))],                              // length 3, distance 1
            [(265, (1, 1), 4, (1, 1)), (280, (5, 4), 9, (6, 3))],    // 12 / 6, then 120 / 31: two matches
            [(284, (29, 5), 9, (7, 3)), (262, (0, 0), 1, (0, 0))],   // 256 / 32, then 8 / 2
            [(270, (3, 2), 12, (0, 5))],                             // distance 65 > 40 bytes: too far
            [(266, (0, 1), 30, (0, 0))],                             // distance symbol 30: invalid
        ]
        // Times a byte of a block before the final one waited though it completed a token.
        var waitedBeforeTheFinalBlock = 0
        for (shapeIndex, shape) in shapes.enumerated() {
            for (nineBitLiterals, final) in (0..<8).flatMap({ shift in [(shift, true), (shift, false)] }) {
                let bytes = stream(nineBitLiterals: nineBitLiterals, final: final, matches: shape)
                let context = "shape \(shapeIndex), shifted by \(nineBitLiterals) bits, \(final ? "final" : "not final") block"
                // Bytes that may wait beyond those that cannot complete a token: none in the final
                // block of a raw stream (no trailer), up to four in a block before it.
                let mayWait = final ? 0 : 4
                let whole = InflateHarness.run(bytes, format: .raw)
                // What each prefix fed whole determines (nil once it fails).
                let prefixOutput: [Int?] = (0...bytes.count).map { length in
                    let prefix = Inflater(format: .raw)
                    var count = 0
                    do {
                        try prefix.feed(Array(bytes[0..<length])) { count += $0.count }
                        try prefix.flush { count += $0.count }
                    } catch { return nil }
                    return count
                }

                let inflater = Inflater(format: .raw)
                var output: [UInt8] = []
                var error: InflateError?
                var ends: [Int] = []
                for (index, byte) in bytes.enumerated() {
                    do {
                        let status = try inflater.feed([byte]) { output.append(contentsOf: $0) }
                        if status == .streamEnd { ends.append(index + 1) }
                    } catch let thrown as InflateError {
                        error = thrown
                        break
                    }
                    // Every token the bytes complete is decoded, but for those in the last `mayWait` bytes.
                    if let expected = prefixOutput[index + 1] {
                        XCTAssertLessThanOrEqual(inflater.totalOut, expected, "\(context), after \(index + 1) bytes")
                        if let least = prefixOutput[max(0, index + 1 - mayWait)] {
                            XCTAssertGreaterThanOrEqual(inflater.totalOut, least, "\(context), after \(index + 1) bytes")
                        }
                        if final { XCTAssertEqual(inflater.totalOut, expected, "\(context), after \(index + 1) bytes") }
                        if !final && inflater.totalOut < expected { waitedBeforeTheFinalBlock += 1 }
                    }
                }
                if error == nil {
                    do { try inflater.finish { output.append(contentsOf: $0) } } catch let thrown as InflateError { error = thrown }
                }
                XCTAssertEqual(error?.kind, whole.inflateError?.kind, context)
                XCTAssertEqual(error?.offset, whole.inflateError?.offset, context)
                XCTAssertEqual(output, whole.output, context)
                if whole.error == nil {
                    XCTAssertEqual(ends, [bytes.count], context)
                    // 40 literals, the matches, three literals.
                    XCTAssertEqual(output.count, 43 + shape.map { [257: 3, 265: 12, 280: 120, 284: 256, 262: 8][$0.length] ?? 0 }.reduce(0, +), context)
                }
            }
        }
        // The extra waiting is real (else the not-final half checks nothing new).
        XCTAssertGreaterThan(waitedBeforeTheFinalBlock, 0)
    }

    /// A dynamic block that is not the last, then the shortest final block (10 bits): how long
    /// bytes may wait before a block's end depends on the block's own end-of-block codeword
    /// (whether the bits so far rule it out), so with the end-of-block code first, middle and
    /// last in the canonical order, and the block's end at every bit position, fed a byte at a
    /// time the stream must end on its last byte with every literal delivered.
    func testDynamicBlocksBeforeTheShortestFinalBlockEndOnTheLastByte() throws {
        // Literal/length lengths of complete codes over 'A', 'B', 'C' and the end of the block:
        // codewords (first bit first) 0, 10, 110, 111 in symbol order within a length.
        var codes: [[Int: Int]] = [
            [65: 1, 66: 2, 256: 3, 67: 3],    // end of block 110
            [256: 1, 65: 2, 66: 3, 67: 3],    // end of block 0
            [65: 1, 66: 2, 67: 3, 256: 3],    // end of block 111
            [65: 2, 66: 2, 67: 2, 256: 2],    // end of block 11
        ]
        // Lengths 1, 2, …, 14, 15, 15 over 'A'… and the end of the block, placed at the given
        // position: codewords up to 15 bits, where a wrong end-of-block codeword would let
        // bytes wait for up to 15 bits too long.
        for position in [0, 2, 7, 14, 15] {
            var symbols = Array(65...79)
            symbols.insert(256, at: position)
            codes.append(Dictionary(uniqueKeysWithValues: symbols.enumerated().map { ($0.element, min($0.offset + 1, 15)) }))
        }
        let letters: [UInt8] = Array("ABCCBACABBCA".utf8)
        for (codeIndex, code) in codes.enumerated() {
            let lengths = DynamicHeaderWriter.lengths(257, code)
            let canonical = StreamWrapping.canonicalCodes(lengths)
            for count in 0...letters.count {
                var writer = TestBitWriter()
                DynamicHeaderWriter.write(&writer, final: false, literalLengths: lengths, distanceLengths: [0])
                for letter in letters.prefix(count) { writer.huffman(canonical[Int(letter)], lengths[Int(letter)]) }
                writer.huffman(canonical[256], lengths[256])
                writer.blockHeader(final: true, type: 1)
                writer.fixedLiteralLength(256)
                let bytes = writer.finished
                let context = "code \(codeIndex), \(count) letters"

                let inflater = Inflater(format: .raw)
                var output: [UInt8] = []
                var ends: [Int] = []
                for (index, byte) in bytes.enumerated() {
                    if try inflater.feed([byte], into: { output.append(contentsOf: $0) }) == .streamEnd { ends.append(index + 1) }
                }
                XCTAssertEqual(ends, [bytes.count], context)
                XCTAssertEqual(output, Array(letters.prefix(count)), context)
            }
        }
    }
}
