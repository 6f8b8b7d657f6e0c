import XCTest
import TestSupport
@testable import JPEGCodec

/// The lossless decoder's fast paths against their careful twins: the bit reader's refill for
/// readers below 32 bits against the general one, and the eight-lane 16-bit gray copy against the
/// per-sample copy.
final class LosslessFastPathTwinTests: XCTestCase {
    /// Random entropy-coded bytes: mostly plain, with stuffed 0xFF 0x00 pairs, fill runs and
    /// (sometimes) a marker near the end.
    private func stream(_ rng: inout SeededGenerator) -> [UInt8] {
        var bytes: [UInt8] = []
        let count = Int.random(in: 1...200, using: &rng)
        while bytes.count < count {
            switch Int.random(in: 0..<10, using: &rng) {
            case 0: bytes += [0xFF, 0x00]
            case 1: bytes += [0xFF, 0xFF, 0x00]
            default: bytes.append(UInt8.random(in: 0...0xFE, using: &rng))
            }
        }
        if Bool.random(using: &rng) { bytes += [0xFF, 0xD0 + UInt8.random(in: 0...7, using: &rng)] }
        return bytes
    }

    func testRefillBelow32MatchesRefill() {
        var rng = SeededGenerator(seed: 0x32)
        var fastRefills = 0
        for _ in 0..<2000 {
            let bytes = stream(&rng)
            bytes.withUnsafeBytes { buffer in
                var general = BitReader(), below32 = BitReader()
                general.bytes = buffer
                below32.bytes = buffer
                for _ in 0..<120 {
                    if general.bitCount < 32 {
                        let before = below32.position
                        general.refill()
                        below32.refillBelow32()
                        if below32.position - before >= 4 { fastRefills += 1 }
                    }
                    XCTAssertEqual(below32.accumulator, general.accumulator)
                    XCTAssertEqual(below32.bitCount, general.bitCount)
                    XCTAssertEqual(below32.position, general.position)
                    XCTAssertEqual(below32.markerReached, general.markerReached)
                    XCTAssertEqual(below32.ranOutOfData, general.ranOutOfData)
                    let count = Int.random(in: 0...31, using: &rng)
                    general.consume(count)
                    below32.consume(count)
                }
            }
        }
        XCTAssertGreaterThan(fastRefills, 10000)
    }

    func testEightLaneWideCopyMatchesPerSampleCopy() {
        var rng = SeededGenerator(seed: 0x16)
        for _ in 0..<500 {
            let count = Int.random(in: 0...70, using: &rng)
            let shift = UInt16.random(in: 0...15, using: &rng)
            let samples = (0..<count).map { _ in UInt16.random(in: 0...UInt16.max, using: &rng) }
            var fast = [UInt8](repeating: 0xAA, count: 2 * count)
            let copied = samples.withUnsafeBufferPointer { source in
                fast.withUnsafeMutableBufferPointer { out in
                    LosslessPicture.copyWideRun(source.baseAddress!, into: out.baseAddress!, count: count, shift: shift)
                }
            }
            XCTAssertEqual(copied, count / 8 * 8)
            let expected = samples.prefix(copied).flatMap { sample -> [UInt8] in
                let shifted = UInt16(truncatingIfNeeded: UInt32(sample) << UInt32(shift))
                return [UInt8(shifted >> 8), UInt8(shifted & 0xFF)]
            }
            XCTAssertEqual(Array(fast.prefix(2 * copied)), expected)
            XCTAssertEqual(Array(fast.dropFirst(2 * copied)), [UInt8](repeating: 0xAA, count: 2 * (count - copied)))
        }
    }
}
