import XCTest
import Deflate

/// A byte-alone attempt (`decodeByte`) that stops inside a match keeps the match's bits and a
/// lower bound on what it needs (`holdBelow`). Fed a byte at a time, matches whose byte
/// boundaries fall at every bit position of their length code, length extra bits, distance code
/// and distance extra bits must decode (or fail, with the same kind and offset) exactly as the
/// stream fed whole, with the stream end on the last byte.
final class PendingMatchTests: XCTestCase {
    /// One fixed-code raw block: 40 literals, `nineBitLiterals` of them 9-bit codes (which shifts
    /// what follows by that many bits), then the matches (length symbol with its extra bits,
    /// distance symbol with its extra bits), three literals, the end of the block.
    private func stream(nineBitLiterals: Int, matches: [(length: Int, lengthExtra: (Int, Int), distance: Int, distanceExtra: (Int, Int))]) -> [UInt8] {
        var writer = TestBitWriter()
        writer.blockHeader(final: true, type: 1)
        for index in 0..<40 { writer.fixedLiteralLength(index < nineBitLiterals ? 200 + index : 97 + index % 26) }
        for match in matches {
            writer.fixedLiteralLength(match.length)
            writer.bits(match.lengthExtra.0, match.lengthExtra.1)
            writer.fixedDistance(match.distance)
            writer.bits(match.distanceExtra.0, match.distanceExtra.1)
        }
        for byte in [120, 121, 122] { writer.fixedLiteralLength(byte) }
        writer.fixedLiteralLength(256)
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
        for (shapeIndex, shape) in shapes.enumerated() {
            for nineBitLiterals in 0..<8 {
                let bytes = stream(nineBitLiterals: nineBitLiterals, matches: shape)
                let context = "shape \(shapeIndex), shifted by \(nineBitLiterals) bits"
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
                    // A raw stream holds no trailer: every token the bytes complete is decoded.
                    if let expected = prefixOutput[index + 1] {
                        XCTAssertEqual(inflater.totalOut, expected, "\(context), after \(index + 1) bytes")
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
    }
}
