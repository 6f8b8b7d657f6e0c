import XCTest
import ImageCore

/// `InputBuffer.append(byte:)` is `append(_:)` for one byte: the same bytes and offsets through
/// growth and compaction.
final class InputBufferByteTests: XCTestCase {
    func testBytesAppendedOneByOneMatchPiecesThroughGrowthAndCompaction() {
        let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        let byByte = InputBuffer(initialCapacity: 64), byPiece = InputBuffer(initialCapacity: 64)
        var consumed = 0
        for (index, byte) in bytes.enumerated() {
            byByte.append(byte: byte)
            [byte].withUnsafeBytes { byPiece.append($0) }
            // Consume in uneven steps so both compaction (room at the front) and growth happen.
            if index % 7 == 6 {
                let count = index % 3 + 1
                byByte.consume(count)
                byPiece.consume(count)
                consumed += count
            }
            XCTAssertEqual(byByte.totalAppended, index + 1)
        }
        XCTAssertEqual(Array(byByte.readable), Array(byPiece.readable))
        XCTAssertEqual(Array(byByte.readable), Array(bytes[consumed...]))
        XCTAssertEqual(byByte.consumedOffset, consumed)
        XCTAssertGreaterThan(bytes.count - consumed, 64, "the live bytes outgrew the first capacity")
    }
}
