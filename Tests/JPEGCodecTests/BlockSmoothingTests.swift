import XCTest
import TestSupport
@testable import JPEGCodec

/// Preview smoothing predicts exactly what libjpeg's integer K.8.2 (jdcoefct.c, 3×3) predicts.
final class BlockSmoothingTests: XCTestCase {
    /// libjpeg's rounded division of `num` by 256·`q` with the magnitude capped below 2^`bits`
    /// (for bits > 0), written with 64-bit integer division.
    private func reference(_ num: Int64, q: Int64, bits: Int) -> Int64 {
        var magnitude = num >= 0 ? ((q << 7) + num) / (q << 8) : ((q << 7) - num) / (q << 8)
        if bits > 0 && magnitude >= Int64(1) << Int64(bits) { magnitude = (Int64(1) << Int64(bits)) - 1 }
        return num >= 0 ? magnitude : -magnitude
    }

    func testPredictionsEqualLibjpegsIntegerArithmetic() {
        var rng = SeededGenerator(seed: 5)
        var nonZero = 0, capped = 0
        for round in 0..<4000 {
            // Quantizers from 1 up to the 16-bit limit, DC values from small to the whole 16-bit range.
            let quantizerLimit: Int32 = round % 2 == 0 ? 64 : 32767
            let quantization = (0..<64).map { _ in Int32.random(in: 1...quantizerLimit, using: &rng) }
            let bitChoices = [-1, 0, 1, 2, 3, 13]
            var bits = (0..<64).map { _ in bitChoices.randomElement(using: &rng) ?? -1 }
            bits[0] = 0
            if bits[1] == 0 { bits[1] = -1 }   // keep at least one coefficient predicted
            let dcRange: ClosedRange<Int16> = round % 3 == 0 ? Int16.min...Int16.max : -64...64
            let dc = (0..<9).map { _ in Int64(Int16.random(in: dcRange, using: &rng)) }
            var raw = [Int16](repeating: 0, count: 64)
            for index in BlockSmoothing.predictedIndices where Int.random(in: 0..<4, using: &rng) == 0 {
                raw[index] = Int16.random(in: -50...50, using: &rng)
            }
            quantization.withUnsafeBufferPointer { table in
                guard let table = table.baseAddress,
                      let smoothing = BlockSmoothing(coefficientBits: bits[...], quantization: table) else {
                    return XCTFail("smoothing expected for bits \(bits[0...16])")
                }
                let neighbourhood = DCNeighbourhood(aboveLeft: dc[0], above: dc[1], aboveRight: dc[2], left: dc[3], centre: dc[4],
                                                    right: dc[5], belowLeft: dc[6], below: dc[7], belowRight: dc[8])
                var block = [Int32](repeating: 7, count: 64)
                raw.withUnsafeBufferPointer { rawBlock in
                    block.withUnsafeMutableBufferPointer { out in
                        _ = smoothing.apply(raw: rawBlock.baseAddress!, dc: neighbourhood, into: out.baseAddress!)
                    }
                }
                let weighted: [Int64] = [36 * (dc[3] - dc[5]), 36 * (dc[1] - dc[7]), 9 * (dc[1] + dc[7] - 2 * dc[4]),
                                         5 * (dc[0] - dc[2] - dc[6] + dc[8]), 9 * (dc[3] + dc[5] - 2 * dc[4])]
                for (slot, index) in BlockSmoothing.predictedIndices.enumerated() {
                    guard bits[index] != 0, raw[index] == 0 else {
                        XCTAssertEqual(block[index], 7, "slot \(slot) must be left alone")
                        continue
                    }
                    let q = Int64(quantization[index])
                    let predicted = reference(weighted[slot] * Int64(quantization[0]), q: q, bits: bits[index])
                    // Stored dequantized, keeping the low 16 bits of the product (libjpeg-turbo's SIMD).
                    let expected = Int32(Int16(truncatingIfNeeded: Int32(truncatingIfNeeded: predicted) &* Int32(q)))
                    // A prediction of 0 leaves the slot as it was (the caller's dequantized 0).
                    XCTAssertEqual(block[index], predicted == 0 ? 7 : expected, "slot \(slot) q \(q) dc \(dc)")
                    if predicted != 0 { nonZero += 1 }
                    if bits[index] > 0 && abs(predicted) == (1 << bits[index]) - 1 { capped += 1 }
                }
            }
        }
        XCTAssertGreaterThan(nonZero, 3000)
        XCTAssertGreaterThan(capped, 500)
    }
}
