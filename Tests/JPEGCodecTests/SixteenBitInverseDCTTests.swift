import XCTest
import TestSupport
@testable import JPEGCodec

/// The IDCT entry for sequential storage's 16-bit blocks (one load per row) against the 32-bit
/// entry and the scalar twin, for every shape and output size the renderer uses.
final class SixteenBitInverseDCTTests: XCTestCase {
    /// A block with `terms` non-zero values at zig-zag positions below `limit`: ordinary
    /// dequantized values, or (`extreme`) anywhere in 16 bits, as corrupt data gives, so that some
    /// blocks' first-pass values pass 16 bits and take the scalar path.
    private func block(_ rng: inout SeededGenerator, terms: Int, limit: Int, extreme: Bool) -> [Int16] {
        var block = [Int16](repeating: 0, count: 64)
        func value() -> Int16 {
            extreme && Bool.random(using: &rng) ? Int16.random(in: .min ... .max, using: &rng) : Int16.random(in: -300...300, using: &rng)
        }
        block[0] = extreme ? value() : Int16.random(in: -1000...1000, using: &rng)
        for _ in 0..<terms { block[ZigZag.naturalIndex(Int.random(in: 1..<limit, using: &rng))] = value() }
        return block
    }

    /// The shape the entropy decoder records for `block`.
    private func shape(of block: [Int16]) -> UInt8 {
        var last = 0
        for k in 0..<64 where block[ZigZag.naturalIndex(k)] != 0 { last = k }
        return BlockShape.forLastIndex(last)
    }

    private func samples(_ block: [Int16], shape: UInt8, size: Int, sixteenBit: Bool) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: size * size)
        // Dirty workspace: the transform must not depend on what it held.
        var workspace = [Int32](repeating: 0x5A5A, count: 128)
        let wide = block.map { Int32($0) }
        output.withUnsafeMutableBufferPointer { o in
            workspace.withUnsafeMutableBufferPointer { w in
                guard let o = o.baseAddress, let w = w.baseAddress else { return }
                if sixteenBit {
                    block.withUnsafeBufferPointer { b in
                        guard let b = b.baseAddress else { return }
                        ShapedInverseDCT.transform(b, shape: shape, size: size, workspace: w, output: o, stride: size)
                    }
                } else {
                    wide.withUnsafeBufferPointer { b in
                        guard let b = b.baseAddress else { return }
                        ShapedInverseDCT.transform(b, shape: shape, size: size, workspace: w, output: o, stride: size)
                    }
                }
            }
        }
        return output
    }

    private func scalar(_ block: [Int16]) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: 64)
        var workspace = [Int32](repeating: 0, count: 64)
        let wide = block.map { Int32($0) }
        wide.withUnsafeBufferPointer { b in
            workspace.withUnsafeMutableBufferPointer { w in
                output.withUnsafeMutableBufferPointer { o in
                    guard let b = b.baseAddress, let w = w.baseAddress, let o = o.baseAddress else { return }
                    InverseDCT.transform8x8Scalar(b, workspace: w, output: o, stride: 8)
                }
            }
        }
        return output
    }

    func testSixteenBitEntryEqualsTheScalarTwinAndTheWideEntryForEveryShapeAndSize() {
        var rng = SeededGenerator(seed: 31)
        for trial in 0..<4000 {
            // DC only, triangle (zig-zag 1...5), top-left 4×4 (1...9) and full blocks in turn; every
            // fifth one extreme.
            let limit = [1, 6, 10, 64][trial % 4]
            let values = block(&rng, terms: limit == 1 ? 0 : 1 + trial % 12, limit: max(limit, 2), extreme: trial % 5 == 0)
            // Progressive drawing records triangles (``RawBlockRowDrawer``), the entropy decoders do not.
            let recorded = limit == 6 && !values.indices.contains(where: { values[$0] != 0 && ![0, 1, 2, 8, 9, 16].contains($0) })
                ? BlockShape.triangle : shape(of: values)
            let expected = scalar(values)
            // The recorded shape and the widest one, which the decoders may leave on a block.
            for blockShape in Set([recorded, BlockShape.full]) {
                XCTAssertEqual(samples(values, shape: blockShape, size: 8, sixteenBit: true), expected,
                               "trial \(trial), shape \(blockShape): \(values)")
            }
            for size in [4, 2, 1] where recorded != BlockShape.triangle {
                XCTAssertEqual(samples(values, shape: recorded, size: size, sixteenBit: true),
                               samples(values, shape: recorded, size: size, sixteenBit: false),
                               "trial \(trial), size \(size): \(values)")
            }
        }
    }

    /// The progressive drawer's 16-bit dequantization against its 32-bit twin: the same values
    /// (products kept to 16 bits) and the same shape, for blocks of every shape and products that
    /// wrap.
    func testSixteenBitDequantizationEqualsTheWideOneAndFindsTheSameShape() {
        var rng = SeededGenerator(seed: 47)
        var shapesSeen = Set<UInt8>()
        for trial in 0..<3000 {
            let limit = [1, 6, 10, 64][trial % 4]
            var raw = [Int16](repeating: 0, count: 64)
            raw[0] = Int16.random(in: -2000...2000, using: &rng)
            for _ in 0..<(limit == 1 ? 0 : 1 + trial % 6) {
                raw[ZigZag.naturalIndex(Int.random(in: 1..<limit, using: &rng))] = Int16.random(in: -40...40, using: &rng)
            }
            // Quantizers up to 16 bits; now and then a zero one or a product that wraps to zero.
            var quantizers = (0..<64).map { _ in Int16.random(in: 1...(trial % 7 == 0 ? .max : 99), using: &rng) }
            if trial % 11 == 0 { quantizers[1] = 0; quantizers[8] = 0 }
            if trial % 13 == 0 { raw[9] = 256; quantizers[9] = 256 }
            var narrow = [Int16](repeating: 0x55, count: 64), wide = [Int32](repeating: 0x55, count: 64)
            var narrowShape: UInt8 = 99, wideShape: UInt8 = 98
            raw.withUnsafeBufferPointer { r in
                quantizers.withUnsafeBufferPointer { q in
                    guard let r = r.baseAddress, let q = q.baseAddress else { return }
                    narrow.withUnsafeMutableBufferPointer { n in
                        guard let n = n.baseAddress else { return }
                        narrowShape = RawBlockRowDrawer.dequantize(r, by: q, into: n)
                    }
                    wide.withUnsafeMutableBufferPointer { w in
                        guard let w = w.baseAddress else { return }
                        wideShape = RawBlockRowDrawer.dequantize(r, by: q, into: w)
                    }
                }
            }
            XCTAssertEqual(narrow.map { Int32($0) }, wide, "trial \(trial)")
            XCTAssertEqual(narrowShape, wideShape, "trial \(trial)")
            shapesSeen.insert(narrowShape)
        }
        XCTAssertEqual(shapesSeen, [BlockShape.dcOnly, BlockShape.triangle, BlockShape.topLeft4x4, BlockShape.full])
    }
}
