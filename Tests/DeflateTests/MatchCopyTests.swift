import XCTest
import Deflate
import TestSupport

/// The fast loop copies matches in overlapping 16- and 8-byte chunks, with a one-byte broadcast
/// for distance 1 and a pattern step for distances 2–15, writing past the match into the slack.
/// Every distance up to 40 (and some longer ones) with lengths around each chunk boundary, each
/// match followed by a literal (so a copy that wrote a wrong byte past its end, or short, shows
/// in what follows): decoded by the fast loop (whole input into a buffer of the exact size, and
/// streamed whole) and by the buffered and careful twins (1-byte pieces), against a byte-by-byte model.
final class MatchCopyTests: XCTestCase {
    private static let lengthBases = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59,
                                      67, 83, 99, 115, 131, 163, 195, 227, 258]
    private static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    private static let distanceBases = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769,
                                        1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]

    /// A fixed-Huffman raw stream of the tokens and the output they stand for.
    private func makeStream(history: Int, distances: [Int], lengths: [Int]) -> (stream: [UInt8], output: [UInt8]) {
        var writer = TestBitWriter()
        var output: [UInt8] = []
        var state: UInt32 = 0x1234_5678
        func nextByte() -> UInt8 {
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: state >> 24)
        }
        func literal(_ byte: UInt8) {
            writer.fixedLiteralLength(Int(byte))
            output.append(byte)
        }
        writer.blockHeader(final: true, type: 1)
        for _ in 0..<history { literal(nextByte()) }
        for distance in distances {
            for length in lengths {
                let lengthSymbol = Self.lengthBases.lastIndex { $0 <= length } ?? 0
                writer.fixedLiteralLength(257 + lengthSymbol)
                writer.bits(length - Self.lengthBases[lengthSymbol], Self.lengthExtra[lengthSymbol])
                let distanceSymbol = Self.distanceBases.lastIndex { $0 <= distance } ?? 0
                writer.fixedDistance(distanceSymbol)
                writer.bits(distance - Self.distanceBases[distanceSymbol], max(0, distanceSymbol / 2 - 1))
                for _ in 0..<length { output.append(output[output.count - distance]) }
                literal(nextByte())
            }
        }
        writer.fixedLiteralLength(256)
        return (writer.finished, output)
    }

    private func assertAllPathsAgree(_ stream: [UInt8], _ expected: [UInt8], file: StaticString = #filePath, line: UInt = #line) throws {
        // The fast loop, into a buffer of the exact size.
        var buffer = [UInt8](repeating: 0xA5, count: expected.count)
        let written = try stream.withUnsafeBytes { input in
            try buffer.withUnsafeMutableBytes { try Inflater.decompress(input, format: .raw, into: $0) }
        }
        XCTAssertEqual(written, expected.count, "into a buffer", file: file, line: line)
        XCTAssertTrue(buffer == expected, "into a buffer: first difference at \(firstDifference(buffer, expected))", file: file, line: line)
        // The fast loop through the sliding window.
        let streamed = try Inflater.decompress(stream, format: .raw)
        XCTAssertTrue(streamed == expected, "streamed whole: first difference at \(firstDifference(streamed, expected))", file: file, line: line)
        // The buffered and careful twins.
        let pieces = InflateHarness.run(Chunking.fixed(stream, size: 1), format: .raw)
        XCTAssertNil(pieces.error, file: file, line: line)
        XCTAssertTrue(pieces.output == expected, "1-byte pieces: first difference at \(firstDifference(pieces.output, expected))", file: file, line: line)
    }

    private func firstDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
        (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
    }

    func testEveryShortDistanceAndChunkBoundaryLengthCopiesExactly() throws {
        let lengths = [3, 4, 5, 7, 8, 9, 15, 16, 17, 23, 24, 31, 32, 33, 47, 48, 49, 63, 64, 65, 100, 127, 128, 129, 257, 258]
        let (stream, output) = makeStream(history: 300, distances: Array(1...40) + [47, 48, 64, 100, 255, 256, 257, 300],
                                          lengths: lengths)
        XCTAssertEqual(output.count, 300 + 48 * (lengths.reduce(0, +) + lengths.count))
        try assertAllPathsAgree(stream, output)
    }

    func testLongDistancesAcrossTheWholeWindowCopyExactly() throws {
        // 33 000 bytes of history, then matches reaching back up to 32 768 bytes.
        let (stream, output) = makeStream(history: 33_000, distances: [1000, 4096, 8193, 16_385, 24_577, 32_767, 32_768],
                                          lengths: [3, 16, 17, 32, 33, 258])
        try assertAllPathsAgree(stream, output)
    }
}
