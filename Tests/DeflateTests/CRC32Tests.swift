import XCTest
import Deflate
import TestSupport

/// CRC-32 (RFC 1952 8, PNG Annex D) against published check values and a bitwise reference.
final class CRC32Tests: XCTestCase {
    /// The textbook bit-at-a-time CRC-32, independent of the slicing tables.
    static func referenceCRC32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc & 1) != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    func testCheckValueOf123456789IsCBF43926() {
        XCTAssertEqual(CRC32.checksum(Array("123456789".utf8)), 0xCBF4_3926)
    }

    func testEmptyInputIsZero() {
        XCTAssertEqual(CRC32.checksum([]), 0)
        XCTAssertEqual(CRC32().value, 0)
    }

    func testKnownValuesOfShortStrings() {
        XCTAssertEqual(CRC32.checksum(Array("a".utf8)), 0xE8B7_BE43)
        XCTAssertEqual(CRC32.checksum(Array("The quick brown fox jumps over the lazy dog".utf8)), 0x414F_A339)
        // PNG's IEND chunk: CRC over the type "IEND" is AE 42 60 82 (PNG 11.2.5).
        XCTAssertEqual(CRC32.checksum(Array("IEND".utf8)), 0xAE42_6082)
    }

    func testMatchesBitwiseReferenceForEveryLengthUpTo300() {
        var rng = SeededGenerator(seed: 0xC3C3)
        let data = (0..<300).map { _ in UInt8.random(in: 0...255, using: &rng) }
        for length in 0...300 {
            let slice = Array(data[0..<length])
            XCTAssertEqual(CRC32.checksum(slice), Self.referenceCRC32(slice), "length \(length)")
        }
    }

    func testIncrementalUpdatesAtAnySplitEqualOneShot() {
        var rng = SeededGenerator(seed: 42)
        for length in [1, 7, 8, 9, 63, 64, 65, 1000, 4099] {
            let data = (0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let expected = Self.referenceCRC32(data)
            for _ in 0..<20 {
                let a = Int.random(in: 0...length, using: &rng)
                let b = Int.random(in: a...length, using: &rng)
                var crc = CRC32()
                crc.update(Array(data[0..<a]))
                crc.update(Array(data[a..<b]))
                crc.update(Array(data[b..<length]))
                XCTAssertEqual(crc.value, expected, "length \(length) split \(a) \(b)")
            }
        }
    }

    func testUnalignedStartsMatchReference() {
        var rng = SeededGenerator(seed: 7)
        let data = (0..<200).map { _ in UInt8.random(in: 0...255, using: &rng) }
        data.withUnsafeBytes { raw in
            for start in 0..<16 {
                var crc = CRC32()
                crc.update(UnsafeRawBufferPointer(rebasing: raw[start...]))
                XCTAssertEqual(crc.value, Self.referenceCRC32(Array(data[start...])), "start \(start)")
            }
        }
    }

    func testMegabyteOfZerosMatchesReference() {
        let zeros = [UInt8](repeating: 0, count: 1 << 20)
        // zlib.crc32(bytes(1 << 20)) == 0xA738EA1C
        XCTAssertEqual(CRC32.checksum(zeros), 0xA738_EA1C)
    }
}
