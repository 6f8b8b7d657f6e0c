import XCTest
import Deflate
import TestSupport

/// Adler-32 (RFC 1950 8.2) against published values and a bytewise reference.
final class Adler32Tests: XCTestCase {
    /// The definition, one byte and one modulo at a time.
    static func referenceAdler32(_ bytes: [UInt8]) -> UInt32 {
        var s1: UInt32 = 1, s2: UInt32 = 0
        for byte in bytes {
            s1 = (s1 + UInt32(byte)) % 65521
            s2 = (s2 + s1) % 65521
        }
        return s2 << 16 | s1
    }

    func testWikipediaIs11E60398() {
        XCTAssertEqual(Adler32.checksum(Array("Wikipedia".utf8)), 0x11E6_0398)
    }

    func testEmptyInputIsOne() {
        XCTAssertEqual(Adler32.checksum([]), 1)
        XCTAssertEqual(Adler32().value, 1)
    }

    func testMatchesReferenceForEveryLengthUpTo300() {
        var rng = SeededGenerator(seed: 0xAD1E)
        let data = (0..<300).map { _ in UInt8.random(in: 0...255, using: &rng) }
        for length in 0...300 {
            let slice = Array(data[0..<length])
            XCTAssertEqual(Adler32.checksum(slice), Self.referenceAdler32(slice), "length \(length)")
        }
    }

    func testAllOnesBytesAroundNMAXDoNotOverflow() {
        // 0xFF bytes make the sums grow fastest: the deferred modulo must still be exact
        // just below, at and above NMAX (5552) and across several blocks.
        for length in [5551, 5552, 5553, 11104, 11105, 100_000] {
            let data = [UInt8](repeating: 0xFF, count: length)
            XCTAssertEqual(Adler32.checksum(data), Self.referenceAdler32(data), "length \(length)")
        }
    }

    func testIncrementalUpdatesAtAnySplitEqualOneShot() {
        var rng = SeededGenerator(seed: 99)
        for length in [1, 8, 9, 5552, 5553, 20000] {
            let data = (0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let expected = Self.referenceAdler32(data)
            for _ in 0..<20 {
                let a = Int.random(in: 0...length, using: &rng)
                let b = Int.random(in: a...length, using: &rng)
                var adler = Adler32()
                adler.update(Array(data[0..<a]))
                adler.update(Array(data[a..<b]))
                adler.update(Array(data[b..<length]))
                XCTAssertEqual(adler.value, expected, "length \(length) split \(a) \(b)")
            }
        }
    }

    func testMegabyteOfZerosIsKnownValue() {
        // zlib.adler32(bytes(1 << 20)) == 0x00F00001
        XCTAssertEqual(Adler32.checksum([UInt8](repeating: 0, count: 1 << 20)), 0x00F0_0001)
    }
}
