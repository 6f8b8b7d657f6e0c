import XCTest
import TestSupport
@testable import JPEGCodec

/// Preview smoothing predicts exactly what libjpeg-turbo 2.1+'s integer arithmetic (jdcoefct.c,
/// 5×5) predicts: the rounded division, the cap below 2^Al, the 16-bit truncation, the kernels.
final class BlockSmoothingTests: XCTestCase {
    /// libjpeg's prediction from weighted DC sum `sum`: ((Q<<7) + |Q00·sum|) / (Q<<8) in 64 bits,
    /// then an int, capped below 2^bits for bits > 0 (not for DC), signed, stored as a JCOEF.
    private func reference(_ sum: Int64, q00: Int64, q: Int64, bits: Int, isDC: Bool) -> Int16 {
        let num = q00 * sum
        var pred = Int32(truncatingIfNeeded: ((q << 7) + abs(num)) / (q << 8))
        if !isDC && bits > 0 && pred >= Int32(1) << Int32(bits) { pred = (Int32(1) << Int32(bits)) - 1 }
        return Int16(truncatingIfNeeded: num < 0 ? -pred : pred)
    }

    func testPredictionsEqualLibjpegsIntegerArithmetic() {
        var rng = SeededGenerator(seed: 5)
        var nonZero = 0, capped = 0
        for round in 0..<20000 {
            let limit: Int32 = round % 2 == 0 ? 64 : 65535
            // Tables hold 16-bit values; the store keeps them as Int16 bit patterns.
            let table = (0..<64).map { _ in Int32(Int16(truncatingIfNeeded: Int32.random(in: 1...limit, using: &rng))) }
            var bits = (0..<10).map { _ in [-1, 0, 1, 2, 3, 13].randomElement(using: &rng) ?? -1 }
            bits[0] = 0
            if bits[1] == 0 { bits[1] = 1 }
            let sum = Int64.random(in: round % 3 == 0 ? -10_000_000...10_000_000 : -3000...3000, using: &rng)
            let k = Int.random(in: 0...9, using: &rng)
            table.withUnsafeBufferPointer { quantization in
                guard let smoothing = BlockSmoothing(bits: bits, quantization: quantization.baseAddress!) else {
                    return XCTFail("smoothing expected for bits \(bits)")
                }
                let q = Int64(UInt16(truncatingIfNeeded: table[ZigZag.naturalIndex(k)]))
                let q00 = Int64(UInt16(truncatingIfNeeded: table[0]))
                let expected = reference(sum, q00: q00, q: q, bits: bits[k], isDC: k == 0)
                XCTAssertEqual(smoothing.prediction(Int(sum), position: k), expected, "k \(k) sum \(sum) q \(q) bits \(bits[k])")
                if expected != 0 { nonZero += 1 }
                if k > 0 && bits[k] > 0 && Int(expected.magnitude) == (1 << bits[k]) - 1 { capped += 1 }
            }
        }
        XCTAssertGreaterThan(nonZero, 8000)
        XCTAssertGreaterThan(capped, 1000)
    }

    func testFlatNeighbourhoodKeepsDCAndPredictsNoAC() {
        // Every kernel's AC weights sum to 0 and the DC kernel's to 256: a flat picture stays flat.
        let table = [Int32](repeating: 3, count: 64)
        table.withUnsafeBufferPointer { quantization in
            guard let smoothing = BlockSmoothing(bits: [1] + Array(repeating: -1, count: 9), quantization: quantization.baseAddress!) else {
                return XCTFail("smoothing expected")
            }
            XCTAssertTrue(smoothing.changesDC)
            for dc in [-300, -1, 0, 5, 1000] {
                let column = DCNeighbourhood.Column(up2: dc, up1: dc, centre: dc, down1: dc, down2: dc)
                let neighbourhood = DCNeighbourhood(farLeft: column, left: column, centre: column, right: column, farRight: column)
                var raw = [Int16](repeating: 0, count: 64)
                raw[0] = Int16(dc)
                var block = [Int32](repeating: 0, count: 64)
                let shape = raw.withUnsafeBufferPointer { rawBlock in
                    block.withUnsafeMutableBufferPointer { out in
                        smoothing.apply(raw: rawBlock.baseAddress!, dc: neighbourhood, shape: BlockShape.dcOnly, into: out.baseAddress!)
                    }
                }
                XCTAssertEqual(shape, BlockShape.dcOnly)
                XCTAssertEqual(block[0], Int32(dc) * 3)
                XCTAssertEqual(block[1...].filter { $0 != 0 }.count, 0)
            }
        }
    }

    func testNeighbourRowsFollowLibjpegTurbo3() throws {
        // 4:2:0 luma of a 64×20 picture: 3 block rows in 2 iMCU rows (the last has one).
        let components = [FrameComponent(id: 1, horizontalSampling: 2, verticalSampling: 2, quantizationTable: 0),
                          FrameComponent(id: 2, horizontalSampling: 1, verticalSampling: 1, quantizationTable: 1),
                          FrameComponent(id: 3, horizontalSampling: 1, verticalSampling: 1, quantizationTable: 1)]
        let frame = FrameHeader(marker: 0xC2, precision: 8, height: 20, width: 64, components: components)
        let layout = try FrameLayout(frame: frame, scale: .full, at: 0)
        let luma = layout.components[0]
        let rows = (0..<3).map { NeighbourRows(row: $0, component: luma, iMCURows: layout.mcuRows) }
        XCTAssertEqual(rows.map { [$0.up2, $0.up1, $0.row, $0.down1, $0.down2] },
                       [[0, 0, 0, 1, 2], [0, 0, 1, 2, 3], [1, 1, 2, 2, 2]])
    }
}

/// The written-out sums of the common (AC known) form equal the kernel dot products.
final class BlockSmoothingScalarTwinTests: XCTestCase {
    /// A zero block of raw coefficients (all quantizers 1) after the smoothing for coefficient
    /// bits `bits` (zig-zag 0...9) with neighbourhood `n`, and that smoothing.
    private func smoothedZeroBlock(bits: [Int], _ n: DCNeighbourhood) -> (block: [Int32], smoothing: BlockSmoothing)? {
        let table = [Int32](repeating: 1, count: 64)
        guard let smoothing = table.withUnsafeBufferPointer({ BlockSmoothing(bits: bits, quantization: $0.baseAddress!) }) else {
            return nil
        }
        var block = [Int32](repeating: 0, count: 64)
        let raw = [Int16](repeating: 0, count: 64)
        _ = raw.withUnsafeBufferPointer { rawBlock in
            block.withUnsafeMutableBufferPointer { out in
                smoothing.apply(raw: rawBlock.baseAddress!, dc: n, shape: BlockShape.dcOnly, into: out.baseAddress!)
            }
        }
        return (block, smoothing)
    }

    func testScalarSumsEqualKernelDotProducts() {
        var rng = SeededGenerator(seed: 11)
        var predicted = 0
        for _ in 0..<3000 {
            func column() -> DCNeighbourhood.Column {
                DCNeighbourhood.Column(up2: Int.random(in: -2000...2000, using: &rng), up1: Int.random(in: -2000...2000, using: &rng),
                                       centre: Int.random(in: -2000...2000, using: &rng), down1: Int.random(in: -2000...2000, using: &rng),
                                       down2: Int.random(in: -2000...2000, using: &rng))
            }
            let n = DCNeighbourhood(farLeft: column(), left: column(), centre: column(), right: column(), farRight: column())
            // Positions 1...5 never sent, 6...9 exact: the AC-known form predicts 1...5 uncapped.
            guard case let (block, smoothing)? = smoothedZeroBlock(bits: [0, -1, -1, -1, -1, -1, 0, 0, 0, 0], n) else {
                return XCTFail("smoothing expected")
            }
            XCTAssertFalse(smoothing.changesDC)
            for k in 1...5 {
                let sum = Int((SmoothingKernels.acKnown[k - 1] &* n.lanes).wrappedSum())
                let expected = Int32(smoothing.prediction(sum, position: k))
                XCTAssertEqual(block[ZigZag.naturalIndex(k)], expected, "zig-zag \(k)")
                if expected != 0 { predicted += 1 }
            }
        }
        XCTAssertGreaterThan(predicted, 10000)
    }

    /// The DC-only form (first-scan previews): ``DCOnlySums`` against the kernels' dot products,
    /// and ``BlockSmoothing/apply(raw:dc:shape:into:)`` against predictions from those products.
    func testDCOnlyScalarSumsEqualKernelDotProducts() {
        var rng = SeededGenerator(seed: 12)
        var predicted = 0
        for trial in 0..<3000 {
            // Wide values (and 16-bit extremes) as well as smooth neighbourhoods around one level.
            let spread = trial % 3 == 0 ? 32767 : (trial % 3 == 1 ? 2000 : 40)
            let level = Int.random(in: -1000...1000, using: &rng)
            func value() -> Int { min(max(level + Int.random(in: -spread...spread, using: &rng), -32768), 32767) }
            func column() -> DCNeighbourhood.Column {
                DCNeighbourhood.Column(up2: value(), up1: value(), centre: value(), down1: value(), down2: value())
            }
            let n = DCNeighbourhood(farLeft: column(), left: column(), centre: column(), right: column(), farRight: column())
            let sums = DCOnlySums(n)
            let scalar = [sums.ac01, sums.ac10, sums.ac20, sums.ac11, sums.ac02, sums.ac03, sums.ac12, sums.ac21, sums.ac30, sums.dc]
            let kernels = SmoothingKernels.dcOnly.map { Int(($0 &* n.lanes).wrappedSum()) }
            XCTAssertEqual(scalar, kernels)
            // Only DC sent: DC smoothed, zig-zag 1...9 predicted uncapped.
            guard case let (block, smoothing)? = smoothedZeroBlock(bits: [0, -1, -1, -1, -1, -1, -1, -1, -1, -1], n) else {
                return XCTFail("smoothing expected")
            }
            XCTAssertTrue(smoothing.changesDC)
            XCTAssertEqual(block[0], Int32(smoothing.prediction(kernels[9], position: 0)), "DC")
            for k in 1...9 {
                let expected = Int32(smoothing.prediction(kernels[k - 1], position: k))
                XCTAssertEqual(block[ZigZag.naturalIndex(k)], expected, "zig-zag \(k)")
                if expected != 0 { predicted += 1 }
            }
        }
        XCTAssertGreaterThan(predicted, 5000)
    }
}
