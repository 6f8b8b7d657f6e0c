import XCTest
@testable import Deflate
import TestSupport

/// The table-free CRC-32 fold for long inputs (``CRC32Tables/sparseFolded(_:_:_:)``) against
/// the one-table bytewise twin, and its polynomial against the generator.
final class CRC32SparseFoldTests: XCTestCase {
    /// x^203 + Σ x^(203 − d) over the fold's distances is 0 mod G (G = 0x104C11DB7, not reflected):
    /// the fold leaves the CRC unchanged only if this holds.
    func testFoldPolynomialIsAMultipleOfTheGenerator() {
        let generator: UInt64 = 0x1_04C1_1DB7
        // x^e mod G.
        func power(_ exponent: Int) -> UInt64 {
            var r: UInt64 = 1
            for _ in 0..<exponent {
                r <<= 1
                if r >> 32 != 0 { r ^= generator }
            }
            return r
        }
        let degree = CRC32Tables.sparseDegree
        let (d0, d1, d2, d3, d4) = CRC32Tables.sparseDistances
        let distances = [d0, d1, d2, d3, d4]
        XCTAssertEqual(distances.max(), degree)
        XCTAssertEqual(Set(distances).count, 5)
        let remainder = distances.reduce(power(degree)) { $0 ^ power(degree - $1) }
        XCTAssertEqual(remainder, 0)
        // A term one off leaves a remainder (the check can fail).
        XCTAssertNotEqual(remainder ^ power(degree - d0) ^ power(degree - d0 + 1), 0)
    }

    /// Lengths around the threshold, the scratch blocks (each 512 vectors after the first 203)
    /// and the 16-byte remainder; every start offset 0–15; random registers; random, zero and
    /// all-ones bytes.
    func testFoldMatchesBytewiseTwin() {
        let tables = CRC32Tables.shared
        let degree = CRC32Tables.sparseDegree, block = CRC32Tables.sparseBlock
        var rng = SeededGenerator(seed: 0x5FA25E)
        let size = 16 * (degree + 4 * block) + 64
        let random = (0..<size).map { _ in UInt8.random(in: 0...255, using: &rng) }
        var lengths = [CRC32Tables.sparseThreshold, CRC32Tables.sparseThreshold + 1, 16 * degree + 16 * 304 + 7]
        for blocks in 1...4 {
            for delta in [-17, -16, -15, -1, 0, 1, 15, 16, 17] { lengths.append(16 * (degree + blocks * block) + delta) }
        }
        lengths += (0..<12).map { _ in Int.random(in: CRC32Tables.sparseThreshold...(size - 16), using: &rng) }
        let patterns: [(String, [UInt8])] = [("random", random), ("zeros", [UInt8](repeating: 0, count: size)),
                                            ("ones", [UInt8](repeating: 0xFF, count: size))]
        for (name, data) in patterns {
            data.withUnsafeBytes { raw in
                for length in lengths where length >= CRC32Tables.sparseThreshold {
                    let register = UInt32.random(in: 0...UInt32.max, using: &rng)
                    let offset = Int.random(in: 0...15, using: &rng)
                    let base = raw.baseAddress! + offset
                    XCTAssertEqual(tables.sparseFolded(register, base, length), tables.bytewise(register, base, length),
                                   "\(name) length \(length) offset \(offset)")
                }
            }
        }
        random.withUnsafeBytes { raw in
            for offset in 0..<16 {
                let length = 16 * (degree + block) + 9
                let base = raw.baseAddress! + offset
                XCTAssertEqual(tables.sparseFolded(0xFFFF_FFFF, base, length), tables.bytewise(0xFFFF_FFFF, base, length),
                               "offset \(offset)")
            }
        }
    }

    /// Long inputs through `CRC32` in pieces that straddle the threshold equal the whole input.
    func testPiecesAroundTheThresholdEqualWhole() {
        var rng = SeededGenerator(seed: 0xC0FFEE)
        let data = (0..<100_000).map { _ in UInt8.random(in: 0...255, using: &rng) }
        let whole = CRC32.checksum(data)
        XCTAssertEqual(whole, CRC32Tables.shared.bytewise(0xFFFF_FFFF, data, data.count) ^ 0xFFFF_FFFF)
        for _ in 0..<20 {
            var crc = CRC32()
            var start = 0
            while start < data.count {
                let piece = min(data.count - start, Int.random(in: 0...(3 * CRC32Tables.sparseThreshold), using: &rng))
                data.withUnsafeBytes { crc.update(UnsafeRawBufferPointer(rebasing: $0[start..<(start + piece)])) }
                start += piece
            }
            XCTAssertEqual(crc.value, whole)
        }
    }
}
