import XCTest
import Foundation
import TestSupport
@testable import JPEGCodec

/// The integer IDCTs against a floating-point inverse DCT (T.81 A.3.3).
final class InverseDCTTests: XCTestCase {
    /// f(x, y) = 1/4 Σ C(u) C(v) F(u, v) cos((2x+1)uπ/16) cos((2y+1)vπ/16), + 128.
    private func referenceIDCT(_ coefficients: [Double]) -> [Double] {
        var out = [Double](repeating: 0, count: 64)
        for y in 0..<8 {
            for x in 0..<8 {
                var sum = 0.0
                for v in 0..<8 {
                    for u in 0..<8 {
                        let cu = u == 0 ? 1 / 2.0.squareRoot() : 1, cv = v == 0 ? 1 / 2.0.squareRoot() : 1
                        sum += cu * cv * coefficients[v * 8 + u]
                            * cos(Double(2 * x + 1) * Double(u) * .pi / 16) * cos(Double(2 * y + 1) * Double(v) * .pi / 16)
                    }
                }
                out[y * 8 + x] = sum / 4 + 128
            }
        }
        return out
    }

    private func randomBlock(_ rng: inout SeededGenerator, terms: Int, positions: Range<Int> = 1..<64) -> [Int32] {
        var block = [Int32](repeating: 0, count: 64)
        block[0] = Int32.random(in: -600...600, using: &rng)
        for _ in 0..<terms {
            block[ZigZag.naturalIndex(Int.random(in: positions, using: &rng))] = Int32.random(in: -120...120, using: &rng)
        }
        return block
    }

    /// The IDCT variants under test.
    private enum Variant { case simd, scalar, topLeft, reduced }

    private func run(_ block: [Int32], size: Int, variant: Variant = .simd) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: size * size)
        var workspace = [Int32](repeating: 0, count: 64)
        block.withUnsafeBufferPointer { c in
            workspace.withUnsafeMutableBufferPointer { w in
                output.withUnsafeMutableBufferPointer { o in
                    guard let c = c.baseAddress, let w = w.baseAddress, let o = o.baseAddress else { return }
                    switch (size, variant) {
                    case (8, .scalar): InverseDCT.transform8x8Scalar(c, workspace: w, output: o, stride: 8)
                    case (8, .topLeft): InverseDCT.transform8x8TopLeft(c, workspace: w, output: o, stride: 8)
                    case (8, _): InverseDCT.transform8x8(c, workspace: w, output: o, stride: 8)
                    case (4, _): ReducedInverseDCT.transform4x4(c, workspace: w, output: o, stride: 4)
                    case (2, _): ReducedInverseDCT.transform2x2(c, workspace: w, output: o, stride: 2)
                    default: ReducedInverseDCT.transform1x1(c, output: o)
                    }
                }
            }
        }
        return output
    }

    func testAccurateIDCTIsWithinOneOfTheFloatingPointTransform() {
        var rng = SeededGenerator(seed: 8)
        var worst = 0.0
        for trial in 0..<400 {
            let block = randomBlock(&rng, terms: trial % 20)
            let exact = referenceIDCT(block.map(Double.init))
            let got = run(block, size: 8)
            for i in 0..<64 {
                let clamped = min(max(exact[i], 0), 255)
                worst = max(worst, abs(Double(got[i]) - clamped))
            }
        }
        XCTAssertLessThanOrEqual(worst, 1.0)
    }

    func testVectorIDCTEqualsItsScalarTwinExactly() {
        var rng = SeededGenerator(seed: 9)
        for trial in 0..<500 {
            var block = randomBlock(&rng, terms: trial % 64)
            // Include large dequantized values (coefficient × big quantizer) now and then.
            if trial % 7 == 0 { block[Int.random(in: 0..<64, using: &rng)] = Int32.random(in: -30000...30000, using: &rng) }
            XCTAssertEqual(run(block, size: 8), run(block, size: 8, variant: .scalar), "trial \(trial)")
        }
    }

    func testTopLeftPathEqualsTheFullTransformForItsBlocks() {
        var rng = SeededGenerator(seed: 11)
        for trial in 0..<300 {
            // Zig-zag positions 1...9 all lie in the top-left 4×4.
            let block = randomBlock(&rng, terms: trial % 10, positions: 1..<10)
            XCTAssertEqual(run(block, size: 8, variant: .topLeft), run(block, size: 8, variant: .scalar), "trial \(trial)")
        }
    }

    func testReducedIDCTsApproximateTheAverageOfTheFullOutput() {
        var rng = SeededGenerator(seed: 10)
        for size in [4, 2, 1] {
            let factor = 8 / size
            var worst = 0.0
            for trial in 0..<200 {
                let block = randomBlock(&rng, terms: trial % 12)
                let exact = referenceIDCT(block.map(Double.init))
                let got = run(block, size: size)
                for y in 0..<size {
                    for x in 0..<size {
                        var sum = 0.0
                        for dy in 0..<factor { for dx in 0..<factor { sum += exact[(y * factor + dy) * 8 + x * factor + dx] } }
                        let average = min(max(sum / Double(factor * factor), 0), 255)
                        worst = max(worst, abs(Double(got[y * size + x]) - average))
                    }
                }
            }
            // The reduced transforms drop terms that mostly cancel in the average; a few levels remain.
            XCTAssertLessThanOrEqual(worst, size == 1 ? 1.0 : 6.0, "size \(size)")
        }
    }

    func testDCOnlyBlockIsFlat() {
        var block = [Int32](repeating: 0, count: 64)
        block[0] = -80   // −80 / 8 = −10 → 118
        XCTAssertEqual(run(block, size: 8), [UInt8](repeating: 118, count: 64))
        XCTAssertEqual(run(block, size: 8, variant: .scalar), [UInt8](repeating: 118, count: 64))
        XCTAssertEqual(run(block, size: 1), [118])
    }

    func testOutOfRangeValuesSaturate() {
        var block = [Int32](repeating: 0, count: 64)
        block[0] = 32000 * 255
        XCTAssertEqual(run(block, size: 8), [UInt8](repeating: 255, count: 64))
        block[0] = -32000 * 255
        XCTAssertEqual(run(block, size: 4), [UInt8](repeating: 0, count: 16))
    }
}
