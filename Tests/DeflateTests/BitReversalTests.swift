import XCTest
@testable import Deflate

/// The table builder's bit reversal (swap steps) against the bit-by-bit definition.
final class BitReversalTests: XCTestCase {
    func testEveryCodeOfEveryLengthReversesLikeTheBitByBitLoop() {
        var checked = 0
        for length in 1...15 {
            for code in 0..<(1 << length) {
                var value = code, expected = 0
                for _ in 0..<length {
                    expected = (expected << 1) | (value & 1)
                    value >>= 1
                }
                XCTAssertEqual(HuffmanTableBuilder.reverseBits(code, length), expected, "code \(code) length \(length)")
                checked += 1
            }
        }
        XCTAssertEqual(checked, (1 << 16) - 2)
    }
}
