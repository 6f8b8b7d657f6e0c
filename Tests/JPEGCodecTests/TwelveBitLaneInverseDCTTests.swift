import XCTest
import TestSupport
@testable import JPEGCodec

/// The 12-bit IDCT in 32-bit lanes against its 64-bit scalar twin: the same samples for every
/// block the lanes take, blocks at the edge of the exactness check included, and declined blocks
/// left to the twin.
final class TwelveBitLaneInverseDCTTests: XCTestCase {
    /// Both transforms of `block` with `quantizers`: the lanes' samples (nil if declined) and the twin's.
    private func transforms(_ block: [Int16], _ quantizers: [Int32]) -> (lanes: [UInt16]?, scalar: [UInt16]) {
        var lanes = [UInt16](repeating: 0xFFFF, count: 64 + 8), scalar = [UInt16](repeating: 0xFFFF, count: 64 + 8)
        var scratch = [UInt8](repeating: 0, count: 384)
        var workspace = [Int64](repeating: 0, count: 64)
        var taken = false
        block.withUnsafeBufferPointer { b in
            quantizers.withUnsafeBufferPointer { q in
                // Output rows 9 samples apart: the transforms must not write between rows.
                taken = scratch.withUnsafeMutableBytes { s in
                    lanes.withUnsafeMutableBufferPointer { out in
                        TwelveBitLaneInverseDCT.transform(b.baseAddress!, quantizers: q.baseAddress!, scratch: s.baseAddress!,
                                                          output: out.baseAddress!, stride: 9)
                    }
                }
                workspace.withUnsafeMutableBufferPointer { w in
                    scalar.withUnsafeMutableBufferPointer { out in
                        TwelveBitInverseDCT.transform8x8(b.baseAddress!, quantizers: q.baseAddress!, workspace: w.baseAddress!,
                                                         output: out.baseAddress!, stride: 9)
                    }
                }
            }
        }
        if !taken { XCTAssertEqual(lanes, [UInt16](repeating: 0xFFFF, count: 72), "a declined block was written") }
        return (taken ? lanes : nil, scalar)
    }

    /// Σ(|x| >> 3) of the block's most demanding column, what the lanes check.
    private func largestColumnEighths(_ block: [Int16], _ quantizers: [Int32]) -> Int64 {
        (0..<8).map { c in (0..<8).reduce(Int64(0)) { $0 + abs(Int64(block[$1 * 8 + c]) * Int64(quantizers[$1 * 8 + c])) >> 3 } }.max()!
    }

    func testConstantsMatchTheButterflies() {
        typealias Lanes = TwelveBitLaneInverseDCT.Lanes
        var largest: Int64 = 0
        for input in 0..<8 {
            let x = (0..<8).map { Lanes(repeating: $0 == input ? 1 : 0) }
            let r = TwelveBitLaneInverseDCT.step(x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7])
            for lanes in [r.0, r.1, r.2, r.3, r.4, r.5, r.6, r.7] { largest = max(largest, abs(Int64(lanes[0]))) }
        }
        XCTAssertEqual(TwelveBitLaneInverseDCT.largestWeight, largest)
        let limit = Int64(TwelveBitLaneInverseDCT.columnLimit)
        XCTAssertEqual(limit, (((Int64(1) << 31) - (1 << 11) - 1) / largest - 56) / 8)
        XCTAssertLessThan((8 * limit + 56) * largest + (1 << 11), Int64(1) << 31)
    }

    func testPhotoLikeBlocksMatchTheTwin() {
        var rng = SeededGenerator(seed: 0x12B1)
        var taken = 0
        for _ in 0..<4000 {
            let quantizers = (0..<64).map { _ in Int32.random(in: 1...120, using: &rng) }
            var block = [Int16](repeating: 0, count: 64)
            block[0] = Int16.random(in: -2048...2047, using: &rng)
            for _ in 0..<Int.random(in: 0...40, using: &rng) {
                block[Int.random(in: 1..<64, using: &rng)] = Int16.random(in: -300...300, using: &rng)
            }
            let (lanes, scalar) = transforms(block, quantizers)
            if let lanes { taken += 1; XCTAssertEqual(lanes, scalar) }
        }
        XCTAssertGreaterThan(taken, 3500)
    }

    func testBlocksAtTheCheckEdgeMatchTheTwin() {
        // Columns whose Σ|x| sits at the check's limit, signed to push one output towards 2^31:
        // intermediate sums wrap, the results must not.
        var rng = SeededGenerator(seed: 0xED6E)
        var taken = 0, declined = 0
        let limit = Int64(TwelveBitLaneInverseDCT.columnLimit)
        for trial in 0..<3000 {
            let quantizers = (0..<64).map { _ in Int32.random(in: 1...16, using: &rng) }
            var block = [Int16](repeating: 0, count: 64)
            let columns = trial % 3 == 0 ? Array(0..<8) : [Int.random(in: 0..<8, using: &rng)]
            for c in columns {
                // Spread the budget over a few rows with random signs, then top up row 0 or 1.
                var budget = 8 * limit + Int64.random(in: -300...300, using: &rng)
                for r in (0..<8).shuffled(using: &rng).prefix(Int.random(in: 1...8, using: &rng)) where budget > 0 {
                    let q = Int64(quantizers[r * 8 + c])
                    let share = min(Int64.random(in: 0...budget, using: &rng) / q, 32767)
                    block[r * 8 + c] = Int16(Bool.random(using: &rng) ? share : -share)
                    budget -= share * q
                }
            }
            let (lanes, scalar) = transforms(block, quantizers)
            XCTAssertEqual(lanes != nil, largestColumnEighths(block, quantizers) <= limit)
            if let lanes { taken += 1; XCTAssertEqual(lanes, scalar, "block \(block) quantizers \(quantizers)") } else { declined += 1 }
        }
        XCTAssertGreaterThan(taken, 500)
        XCTAssertGreaterThan(declined, 50)
    }

    func testSingleLargestWeightInputAtTheLimit() {
        // All of a column's budget on one input, each position in turn, for the largest sums the
        // lanes accept (|x| = 8 · limit + 7 with quantizer 1 rounds down to the limit).
        let limit = Int32(TwelveBitLaneInverseDCT.columnLimit)
        for position in 0..<64 {
            for quantizer in [Int32(6), 7] {
                for sign in [Int32(1), -1] {
                    var block = [Int16](repeating: 0, count: 64)
                    let quantizers = [Int32](repeating: quantizer, count: 64)
                    block[position] = Int16(sign * min((8 * limit + 7) / quantizer, 32767))
                    let (lanes, scalar) = transforms(block, quantizers)
                    XCTAssertNotNil(lanes)
                    if let lanes { XCTAssertEqual(lanes, scalar, "position \(position) quantizer \(quantizer) sign \(sign)") }
                }
            }
        }
    }

    func testExtremeBlocksAreDeclinedOrMatch() {
        var rng = SeededGenerator(seed: 0xE7E)
        var declined = 0
        for _ in 0..<2000 {
            let quantizers = (0..<64).map { _ in Bool.random(using: &rng) ? 65535 : Int32.random(in: 1...65535, using: &rng) }
            let block = (0..<64).map { _ -> Int16 in
                switch Int.random(in: 0..<4, using: &rng) {
                case 0: return .min
                case 1: return .max
                case 2: return 0
                default: return Int16.random(in: .min ... .max, using: &rng)
                }
            }
            let (lanes, scalar) = transforms(block, quantizers)
            if let lanes { XCTAssertEqual(lanes, scalar) } else { declined += 1 }
        }
        XCTAssertEqual(declined, 2000)
    }
}
