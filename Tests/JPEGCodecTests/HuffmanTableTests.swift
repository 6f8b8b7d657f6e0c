import XCTest
import ImageCore
@testable import JPEGCodec

/// The Huffman table builder (T.81 C.1/C.2, F.2.2.3) and symbol decoding.
final class HuffmanTableTests: XCTestCase {
    private func definition(_ lengths: [Int: Int], symbols: [UInt8]) -> HuffmanTableDefinition {
        var counts = [UInt8](repeating: 0, count: 16)
        for (length, count) in lengths { counts[length - 1] = UInt8(count) }
        return HuffmanTableDefinition(counts: counts, symbols: symbols)
    }

    func testOverSubscribedCodeLengthsAreRejected() {
        // Three codes of length 1 cannot exist.
        XCTAssertThrowsError(try HuffmanTable(definition([1: 3], symbols: [1, 2, 3]), isDC: false, name: "AC table 0", offset: 42)) { error in
            let decodingError = error as? ImageDecodingError
            XCTAssertEqual(decodingError?.kind, .invalidData)
            XCTAssertEqual(decodingError?.offset, 42)
            XCTAssertTrue(decodingError?.message.contains("over-subscribed") == true)
        }
        // Two of length 1 use the all-ones code, which libjpeg rejects too.
        XCTAssertThrowsError(try HuffmanTable(definition([1: 2], symbols: [1, 2]), isDC: false, name: "AC table 0", offset: 0))
        // 1 + 2 + 2 codes of lengths 1, 2, 3: 1/2 + 2/4 + 2/8 > 1.
        XCTAssertThrowsError(try HuffmanTable(definition([1: 1, 2: 2, 3: 2], symbols: [1, 2, 3, 4, 5]), isDC: false, name: "t", offset: 0))
    }

    func testDCTablesMayOnlyHoldSymbolsUpTo15() {
        XCTAssertThrowsError(try HuffmanTable(definition([2: 2], symbols: [3, 16]), isDC: true, name: "DC table 1", offset: 7))
        XCTAssertNoThrow(try HuffmanTable(definition([2: 2], symbols: [3, 16]), isDC: false, name: "AC table 1", offset: 7))
    }

    func testStandardTablesBuild() throws {
        for slot in 0...1 {
            XCTAssertNoThrow(try HuffmanTable(StandardHuffmanTables.dc(slot: slot), isDC: true, name: "DC", offset: 0))
            XCTAssertNoThrow(try HuffmanTable(StandardHuffmanTables.ac(slot: slot), isDC: false, name: "AC", offset: 0))
        }
    }

    func testShortAndLongCodesDecodeToTheirSymbols() throws {
        // Lengths: one code of 1 bit (0), one of 2 bits (10), and 12-bit codes 110000000000, 110000000001.
        let table = try HuffmanTable(definition([1: 1, 2: 1, 12: 2], symbols: [0xA1, 0xB2, 0xC3, 0xD4]),
                                     isDC: false, name: "t", offset: 0)
        // Stream: 0 | 10 | 110000000001 | 110000000000 | 0, padded with ones.
        let bits = "0" + "10" + "110000000001" + "110000000000" + "0"
        let bytes = pack(bits)
        var decoded: [Int] = []
        bytes.withUnsafeBytes { raw in
            var reader = BitReader()
            reader.bytes = raw
            for _ in 0..<5 { decoded.append(reader.decodeSymbol(table.view)) }
            XCTAssertFalse(reader.usedInventedBits)
        }
        XCTAssertEqual(decoded, [0xA1, 0xB2, 0xD4, 0xC3, 0xA1])
    }

    func testAPatternThatIsNoCodeDecodesAsMinusOne() throws {
        let table = try HuffmanTable(definition([2: 1], symbols: [7]), isDC: false, name: "t", offset: 0)
        pack("11111111").withUnsafeBytes { raw in
            var reader = BitReader()
            reader.bytes = raw
            XCTAssertEqual(reader.decodeSymbol(table.view), -1)
        }
    }

    func testStuffedZeroAfterFFIsRemovedAndAMarkerStopsTheReader() {
        // 0xFF 0x00 is the data byte 0xFF; 0xFF 0xD9 is a marker: zeros follow.
        let bytes: [UInt8] = [0xFF, 0x00, 0x81, 0xFF, 0xD9]
        bytes.withUnsafeBytes { raw in
            var reader = BitReader()
            reader.bytes = raw
            reader.refill()
            XCTAssertEqual(reader.peek(16), 0xFF81)
            XCTAssertTrue(reader.markerReached)
            XCTAssertEqual(reader.position, 3)
            reader.consume(16)
            XCTAssertEqual(reader.peek(8), 0)
            reader.consume(8)
            XCTAssertTrue(reader.usedInventedBits)
        }
    }

    func testExtendGivesNegativeValuesForLeadingZeroBit() {
        // Size 3: 011 → 3 − 8 + 1 = −4; 100 → 4.
        pack("011100").withUnsafeBytes { raw in
            var reader = BitReader()
            reader.bytes = raw
            XCTAssertEqual(reader.receiveExtended(3), -4)
            XCTAssertEqual(reader.receiveExtended(3), 4)
        }
    }

    /// Packs a bit string MSB first, padding the last byte with ones (as encoders do).
    private func pack(_ bits: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var current = 0, count = 0
        for bit in bits {
            current = current << 1 | (bit == "1" ? 1 : 0)
            count += 1
            if count == 8 { bytes.append(UInt8(current)); current = 0; count = 0 }
        }
        if count > 0 { bytes.append(UInt8(current << (8 - count) | (1 << (8 - count)) - 1)) }
        // Stuff any 0xFF so the reader sees data, not a marker.
        return bytes.flatMap { $0 == 0xFF ? [0xFF, 0x00] : [$0] }
    }
}
