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

    /// The entropy decoders' shapes (``BlockShape/forIndexMask(_:)``): each transform the renderer
    /// picks for a shape (top-left 4×4, left columns, top rows, full) against the scalar twin, for
    /// blocks confined to each region, ordinary and extreme (first-pass values past 16 bits, so the
    /// scalar path runs), with every shape that covers the block, and the recorded shape itself.
    func testEveryEntropyShapeTransformEqualsTheScalarTwin() {
        var rng = SeededGenerator(seed: 53)
        // Regions by (rows, columns) bound and the shapes covering each.
        let regions: [(rows: Int, columns: Int, covering: [UInt8])] = [
            (4, 4, [BlockShape.topLeft4x4, BlockShape.leftColumns, BlockShape.topRows, BlockShape.full]),
            (8, 4, [BlockShape.leftColumns, BlockShape.full]),
            (4, 8, [BlockShape.topRows, BlockShape.full]),
            (8, 8, [BlockShape.full]),
        ]
        var recordedSeen = Set<UInt8>()
        for trial in 0..<4000 {
            let region = regions[trial % 4]
            var values = [Int16](repeating: 0, count: 64)
            let extreme = trial % 5 == 0
            values[0] = extreme ? Int16.random(in: .min ... .max, using: &rng) : Int16.random(in: -1000...1000, using: &rng)
            for _ in 0..<(1 + trial % 14) {
                let index = Int.random(in: 0..<region.rows, using: &rng) * 8 + Int.random(in: 0..<region.columns, using: &rng)
                values[index] = extreme && Bool.random(using: &rng) ? Int16.random(in: .min ... .max, using: &rng)
                                                                    : Int16.random(in: -300...300, using: &rng)
            }
            // Now and then only row 0 (libjpeg-turbo's shortcut for zero rows 1...7 in the scalar twin).
            if trial % 7 == 0 { for index in 8..<64 { values[index] = 0 } }
            let mask = (1..<64).reduce(0) { values[$1] != 0 ? $0 | $1 : $0 }
            let recorded = BlockShape.forIndexMask(mask)
            recordedSeen.insert(recorded)
            let expected = scalar(values)
            for shape in Set(region.covering + [recorded]) {
                XCTAssertEqual(samples(values, shape: shape, size: 8, sixteenBit: true), expected,
                               "trial \(trial), shape \(shape): \(values)")
            }
        }
        XCTAssertEqual(recordedSeen, [BlockShape.dcOnly, BlockShape.topLeft4x4, BlockShape.leftColumns,
                                      BlockShape.topRows, BlockShape.full])
    }

    /// ``BlockShape/forIndexMask(_:)`` and ``BlockShape/forLastIndex(_:)`` against the shapes'
    /// definitions: for random sets of written indices, the shape from their OR is the smallest one
    /// covering all of them; the shape for a last zig-zag index covers every index up to it.
    func testShapesFromIndicesCoverExactlyTheWrittenCoefficients() {
        func covering(_ indices: [Int]) -> UInt8 {
            if indices.isEmpty { return BlockShape.dcOnly }
            let lowerRows = indices.contains { $0 >= 32 }, rightColumns = indices.contains { $0 & 7 >= 4 }
            return BlockShape.someAC | (lowerRows ? BlockShape.lowerRows : 0) | (rightColumns ? BlockShape.rightColumns : 0)
        }
        var rng = SeededGenerator(seed: 59)
        for trial in 0..<5000 {
            let count = trial % 9
            let indices = (0..<count).map { _ in Int.random(in: 1..<(trial % 2 == 0 ? 64 : 28), using: &rng) }
            XCTAssertEqual(BlockShape.forIndexMask(indices.reduce(0, |)), covering(indices), "\(indices)")
        }
        for last in 0..<64 {
            let written = last == 0 ? [] : (1...last).map(ZigZag.naturalIndex)
            XCTAssertEqual(BlockShape.forLastIndex(last), covering(written), "last \(last)")
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
