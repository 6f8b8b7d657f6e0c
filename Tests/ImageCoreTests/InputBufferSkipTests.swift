import XCTest
import ImageCore

/// `InputBuffer.skipUnbuffered`: bytes a decoder used straight from the caller's memory move the
/// offsets on as if appended and consumed.
final class InputBufferSkipTests: XCTestCase {
    func testSkippedBytesCountAsAppendedAndConsumed() {
        let buffer = InputBuffer(initialCapacity: 64)
        [UInt8](repeating: 1, count: 10).withUnsafeBytes { buffer.append($0) }
        buffer.consume(10)
        buffer.skipUnbuffered(25)
        XCTAssertEqual(buffer.consumedOffset, 35)
        XCTAssertEqual(buffer.totalAppended, 35)
        XCTAssertEqual(buffer.readableCount, 0)
        [UInt8]([7, 8, 9]).withUnsafeBytes { buffer.append($0) }
        XCTAssertEqual(Array(buffer.readable), [7, 8, 9])
        XCTAssertEqual(buffer.consumedOffset, 35)
        XCTAssertEqual(buffer.totalAppended, 38)
    }

    func testSkipIsIgnoredWhileBytesAreReadable() {
        let buffer = InputBuffer(initialCapacity: 64)
        [UInt8]([1, 2, 3]).withUnsafeBytes { buffer.append($0) }
        buffer.consume(1)
        buffer.skipUnbuffered(100)
        XCTAssertEqual(Array(buffer.readable), [2, 3])
        XCTAssertEqual(buffer.consumedOffset, 1)
        XCTAssertEqual(buffer.totalAppended, 3)
    }
}
