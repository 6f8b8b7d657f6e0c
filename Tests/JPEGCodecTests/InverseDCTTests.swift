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
                    case (4, .scalar): ReducedInverseDCT.transform4x4(c, workspace: w, output: o, stride: 4)
                    case (4, _): EightLaneReducedInverseDCT.transform4x4(c, workspace: w, output: o, stride: 4)
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

    /// A block of values anywhere in Int16 (and beyond, which the IDCT takes modulo 2^16), with
    /// `terms` non-zero coefficients at zig-zag positions `positions` and often a zero below row 0.
    private func extremeBlock(_ rng: inout SeededGenerator, terms: Int, positions: Range<Int> = 1..<64) -> [Int32] {
        var block = [Int32](repeating: 0, count: 64)
        @inline(__always) func value() -> Int32 {
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: return Int32.random(in: -40000...40000, using: &rng)
            case 1: return [-32768, 32767, -8193, 8192, -8192, 8191, 16384, -16385].randomElement(using: &rng) ?? 0
            default: return Int32.random(in: -3000...3000, using: &rng)
            }
        }
        block[0] = value()
        for _ in 0..<terms { block[ZigZag.naturalIndex(Int.random(in: positions, using: &rng))] = value() }
        return block
    }

    /// libjpeg-turbo's SIMD islow IDCT (jidctint-sse2/avx2.asm) written out plainly: jidctint.c's
    /// formulas in exact 64-bit arithmetic, with the SIMD code's 16-bit steps (16-bit inputs, x0 ± x4
    /// and z3 = x7 + x3, z4 = x5 + x1 wrapped, first-pass results saturated, the first pass skipped
    /// as x << 2 wrapped when rows 1...7 are zero). An independent check of ``InverseDCT``'s
    /// arrangement of the same arithmetic.
    private func simdModel(_ block: [Int32]) -> [UInt8] {
        func wrap16(_ v: Int64) -> Int64 { Int64(Int16(truncatingIfNeeded: v)) }
        func pass(_ x: [Int64]) -> [Int64] {
            let z1 = (x[2] + x[6]) * 4433
            let tmp2 = z1 + x[6] * -15137, tmp3 = z1 + x[2] * 6270
            let tmp0 = wrap16(x[0] + x[4]) << 13, tmp1 = wrap16(x[0] - x[4]) << 13
            let tmp10 = tmp0 + tmp3, tmp13 = tmp0 - tmp3, tmp11 = tmp1 + tmp2, tmp12 = tmp1 - tmp2
            let oz1 = x[7] + x[1], oz2 = x[5] + x[3], oz3 = wrap16(x[7] + x[3]), oz4 = wrap16(x[5] + x[1])
            let z5 = (oz3 + oz4) * 9633
            let m1 = oz1 * -7373, m2 = oz2 * -20995, m3 = oz3 * -16069 + z5, m4 = oz4 * -3196 + z5
            let t0 = x[7] * 2446 + m1 + m3, t1 = x[5] * 16819 + m2 + m4
            let t2 = x[3] * 25172 + m2 + m3, t3 = x[1] * 12299 + m1 + m4
            return [tmp10 + t3, tmp11 + t2, tmp12 + t1, tmp13 + t0, tmp13 - t0, tmp12 - t1, tmp11 - t2, tmp10 - t3]
        }
        func columnValue(_ v: Int64) -> Int64 { min(max((v + 1024) >> 11, -32768), 32767) }
        func sample(_ v: Int64) -> UInt8 { UInt8(min(max((v + (1 << 17)) >> 18, -128), 127) + 128) }
        let input: [Int64] = block.map { wrap16(Int64($0)) }
        var workspace = [Int64](repeating: 0, count: 64)
        let rowsBelowZero = input[8...].allSatisfy { $0 == 0 }
        for column in 0..<8 {
            let columnInput: [Int64] = (0..<8).map { input[$0 * 8 + column] }
            let out: [Int64] = rowsBelowZero ? [Int64](repeating: wrap16(input[column] << 2), count: 8)
                : pass(columnInput).map(columnValue)
            for row in 0..<8 { workspace[row * 8 + column] = out[row] }
        }
        var samples: [UInt8] = []
        for row in 0..<8 { samples += pass(Array(workspace[(row * 8)..<(row * 8 + 8)])).map(sample) }
        return samples
    }

    func testBothPathsFollowLibjpegTurbosSIMDArithmeticForExtremeValues() {
        // Corrupt data gives coefficients anywhere in 16 bits; the vector path must hand every block
        // whose first pass leaves 15 bits to the exact scalar model, and be exact on the rest.
        var rng = SeededGenerator(seed: 12)
        for trial in 0..<3000 {
            // Positions 1...5 only (row 0) half the time: libjpeg-turbo's shortcut case.
            let block = extremeBlock(&rng, terms: trial % 9, positions: trial % 2 == 0 ? 1..<64 : 1..<6)
            let expected = simdModel(block)
            XCTAssertEqual(run(block, size: 8), expected, "trial \(trial): \(block)")
            XCTAssertEqual(run(block, size: 8, variant: .scalar), expected, "trial \(trial): \(block)")
        }
    }

    func testSIMDModelAgreesWithTheTransformOnValidRanges() {
        // The model itself against the transform on ordinary blocks (no 16-bit step matters there).
        var rng = SeededGenerator(seed: 14)
        for trial in 0..<300 {
            let block = randomBlock(&rng, terms: trial % 64)
            XCTAssertEqual(simdModel(block), run(block, size: 8), "trial \(trial)")
        }
    }

    func testEightLane4x4EqualsItsScalarTwinForOrdinaryAndExtremeBlocks() {
        // Ordinary blocks, and corrupt-data ones (coefficients past 16 bits, first-pass values
        // past 16 bits: those go to the twin), with zero rows and columns for its shortcuts.
        var rng = SeededGenerator(seed: 15)
        for trial in 0..<3000 {
            let block = trial % 3 == 0 ? randomBlock(&rng, terms: trial % 64)
                                       : extremeBlock(&rng, terms: trial % 12, positions: trial % 2 == 0 ? 1..<64 : 1..<6)
            XCTAssertEqual(run(block, size: 4), run(block, size: 4, variant: .scalar), "trial \(trial): \(block)")
        }
    }

    func testTopLeftPathEqualsTheFullTransformForExtremeValues() {
        var rng = SeededGenerator(seed: 13)
        for trial in 0..<1000 {
            let block = extremeBlock(&rng, terms: trial % 10, positions: 1..<10)
            XCTAssertEqual(run(block, size: 8, variant: .topLeft), run(block, size: 8, variant: .scalar), "trial \(trial)")
        }
    }

    func testFlatBlockShortcutEqualsTheTransform() {
        // The renderer fills DC-only blocks with InverseDCT.flatSample instead of transforming them.
        for dc in stride(from: Int32(-70000), through: 70000, by: 37) {
            var block = [Int32](repeating: 0, count: 64)
            block[0] = dc
            XCTAssertEqual(run(block, size: 8), [UInt8](repeating: InverseDCT.flatSample(dc: dc), count: 64), "DC \(dc)")
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
        block[0] = -32000 * 255
        XCTAssertEqual(run(block, size: 4), [UInt8](repeating: 0, count: 16))
    }

    func testHugeDCOfAFlatBlockWrapsAsInLibjpegTurbosSIMDCode() {
        // Rows 1...7 are zero, so the first pass is skipped: 9000 << 2 = 36000 wraps to −29536 in
        // 16 bits; the second pass gives (−29536 + 16) >> 5 = −923 → −128 → sample 0 (not 255).
        var block = [Int32](repeating: 0, count: 64)
        block[0] = 9000
        XCTAssertEqual(run(block, size: 8), [UInt8](repeating: 0, count: 64))
        XCTAssertEqual(run(block, size: 8, variant: .scalar), [UInt8](repeating: 0, count: 64))
        XCTAssertEqual(InverseDCT.flatSample(dc: 9000), 0)
        // 16-bit dequantization: 65536 + 80 is taken as 80 → 80 / 8 = 10 → 138.
        block[0] = 65536 + 80
        XCTAssertEqual(run(block, size: 8), [UInt8](repeating: 138, count: 64))
    }

    func testFirstPassResultsSaturateWhenRowsBelowZeroAreNotAllZero() {
        // One AC term below row 0 means a real first pass: column 0 comes out near 9000 · 4 = 36000,
        // saturated to 32767 (not wrapped to −29536); the second pass gives 32767 · 2^13 / 2^18 ≈ 1024
        // → 127 → 255 everywhere in column... and, through the row transform, everywhere.
        var block = [Int32](repeating: 0, count: 64)
        block[0] = 9000
        block[8] = 1
        XCTAssertEqual(run(block, size: 8), [UInt8](repeating: 255, count: 64))
        XCTAssertEqual(run(block, size: 8, variant: .scalar), [UInt8](repeating: 255, count: 64))
    }

    func testEightLaneTransposeSwapsRowsAndColumns() {
        typealias Row = SixteenBitLanes.Row
        func row(_ i: Int) -> Row { Row((0..<8).map { Int16(i * 8 + $0) }) }
        let t = EightLaneInverseDCT.transposed((row(0), row(1), row(2), row(3), row(4), row(5), row(6), row(7)))
        let columns = [t.0, t.1, t.2, t.3, t.4, t.5, t.6, t.7]
        for j in 0..<8 {
            XCTAssertEqual((0..<8).map { Int(columns[j][$0]) }, (0..<8).map { $0 * 8 + j }, "column \(j)")
        }
    }

    func testEightLaneMultiplyAddFormsPairedProductsIn32Bits() {
        let pairs = SixteenBitLanes.Row(-32768, 32767, 1, -1, 12345, -23456, 0, 7)
        XCTAssertEqual(SixteenBitLanes.multiplyAdd(pairs, 25172, -20995),
                       SIMD4<Int32>(-32768 * 25172 + 32767 * -20995, 25172 + 20995,
                                    12345 * 25172 + -23456 * -20995, 7 * -20995))
    }
}
