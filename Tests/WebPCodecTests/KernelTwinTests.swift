import TestSupport
@testable import WebPCodec
import XCTest

/// Fast paths against their careful scalar twins.
final class KernelTwinTests: XCTestCase {
    func testSIMDYUVToRGBMatchesTheScalarFormulaForEverySample() {
        var rng = SeededGenerator(seed: 0xC0FFEE)
        // Every Y, U and V value shows up, extremes included: 16 lanes per call, then a tail.
        for round in 0..<10_000 {
            // Widths around the 16-pixel blocks: RGB needs a pixel after a block to take it.
            let width = [19, 16, 32, 33, 47, 48, 1][round % 7]
            var y = [UInt8](repeating: 0, count: width), u = y, v = y
            for i in 0..<width {
                y[i] = round < 256 ? UInt8(round) : UInt8.random(in: 0...255, using: &rng)
                u[i] = UInt8(truncatingIfNeeded: round &* 7 &+ i)
                v[i] = i == 0 ? UInt8(truncatingIfNeeded: round) : UInt8.random(in: 0...255, using: &rng)
            }
            for channels in [3, 4] {
                var simd = [UInt8](repeating: 0, count: width * channels)
                var scalar = simd
                VP8YUVConverter.convertRow(y: y, u: u, v: v, width: width, channels: channels, out: &simd)
                VP8YUVConverter.convertScalar(y: y, u: u, v: v, from: 0, to: width, channels: channels, out: &scalar)
                XCTAssertEqual(simd, scalar, "round \(round), \(channels) channels")
                if simd != scalar { return }
            }
            // With an alpha row: the same colours, alpha bytes in the fourth channel.
            let alpha = (0..<width).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ round) }
            var simd = [UInt8](repeating: 0, count: width * 4)
            var scalar = simd
            VP8YUVConverter.convertRow(y: y, u: u, v: v, width: width, channels: 4, alpha: alpha, out: &simd)
            VP8YUVConverter.convertScalar(y: y, u: u, v: v, from: 0, to: width, channels: 4, alpha: alpha, out: &scalar)
            XCTAssertEqual(simd, scalar, "round \(round), with alpha")
            XCTAssertEqual(stride(from: 3, to: simd.count, by: 4).map { simd[$0] }, alpha)
            if simd != scalar { return }
        }
    }

    func testSIMDUpsamplingMatchesTheScalarOneForEveryWidth() {
        var rng = SeededGenerator(seed: 0x0B5E)
        for width in 1...70 {
            for round in 0..<40 {
                let chromaWidth = (width + 1) / 2
                let near = (0..<chromaWidth).map { _ in UInt8.random(in: 0...255, using: &rng) }
                let far = round == 0 ? near : (0..<chromaWidth).map { _ in UInt8(round < 20 ? 255 : Int.random(in: 0...255, using: &rng)) }
                var simd = [UInt8](repeating: 0, count: width), scalar = simd
                VP8YUVConverter.upsampleRow(near: near, far: far, width: width, out: &simd)
                VP8YUVConverter.upsampleScalar(near: near, far: far, pairs: 1...max(1, width), width: width, out: &scalar)
                XCTAssertEqual(simd, scalar, "width \(width), round \(round)")
                if simd != scalar { return }
            }
        }
    }

    func testPairUpsamplingMatchesTheScalarOneForBothRows() {
        var rng = SeededGenerator(seed: 0x9A12)
        for width in 1...70 {
            for round in 0..<40 {
                let chromaWidth = (width + 1) / 2
                // Random rows, and rows at the extremes 0 and 255 (the largest sums).
                func row() -> [UInt8] {
                    (0..<chromaWidth).map { _ in round % 4 == 0 ? [0, 255][Int.random(in: 0...1, using: &rng)] : UInt8.random(in: 0...255, using: &rng) }
                }
                let top = row(), bottom = row()
                var upper = [UInt8](repeating: 0, count: width + 1), lower = upper
                var upperScalar = upper, lowerScalar = upper
                VP8YUVConverter.upsamplePair(top: top, bottom: bottom, width: width, upper: &upper, lower: &lower)
                VP8YUVConverter.upsampleScalar(near: top, far: bottom, pairs: 1...max(1, width), width: width, out: &upperScalar)
                VP8YUVConverter.upsampleScalar(near: bottom, far: top, pairs: 1...max(1, width), width: width, out: &lowerScalar)
                XCTAssertEqual(upper, upperScalar, "upper row, width \(width), round \(round)")
                XCTAssertEqual(lower, lowerScalar, "lower row, width \(width), round \(round)")
                if upper != upperScalar || lower != lowerScalar { return }
            }
        }
    }

    func testClipMatchesLibwebpsBranchyForm() {
        for v in -70_000...70_000 {
            let libwebp: UInt8 = (v & ~16383) == 0 ? UInt8(v >> 6) : (v < 0 ? 0 : 255)
            XCTAssertEqual(VP8YUVConverter.clip8(v), libwebp)
            if VP8YUVConverter.clip8(v) != libwebp { return }
        }
    }
}

/// The 16-lane loop filter against the scalar kernels, on random planes and every kind of edge.
final class LoopFilterTwinTests: XCTestCase {
    func testTransposeIsATranspose() {
        var rows = (SIMD2<UInt64>(), SIMD2<UInt64>(), SIMD2<UInt64>(), SIMD2<UInt64>(),
                    SIMD2<UInt64>(), SIMD2<UInt64>(), SIMD2<UInt64>(), SIMD2<UInt64>())
        // Element (block b, row i, column j) holds 64b + 8i + j.
        withUnsafeMutableBytes(of: &rows) { raw in
            for i in 0..<8 { for b in 0..<2 { for j in 0..<8 { raw[i * 16 + b * 8 + j] = UInt8(64 * b + 8 * i + j) } } }
        }
        VP8Lanes.transpose(&rows)
        withUnsafeBytes(of: &rows) { raw in
            for i in 0..<8 { for b in 0..<2 { for j in 0..<8 {
                XCTAssertEqual(raw[i * 16 + b * 8 + j], UInt8(64 * b + 8 * j + i))
            } } }
        }
    }

    func testLanesMatchTheScalarFilterOnRandomMacroblocks() {
        var rng = SeededGenerator(seed: 0x100F)
        let yStride = 48, uvStride = 24
        var changedRounds = 0
        for round in 0..<1_500 {
            // A 3×3 macroblock neighbourhood; the middle macroblock is filtered. Smooth planes with
            // noise of a random amplitude, so that every mask (filtered, hev) takes both values.
            let amplitude = [2, 6, 20, 60, 255][round % 5]
            func plane(_ count: Int) -> [UInt8] {
                var base = Int.random(in: 0...255, using: &rng)
                return (0..<count).map { _ in
                    base = min(255, max(0, base + Int.random(in: -amplitude...amplitude, using: &rng)))
                    return UInt8(base)
                }
            }
            var yA = plane(yStride * 48), uA = plane(uvStride * 24), vA = plane(uvStride * 24)
            var yB = yA, uB = uA, vB = vA
            let original = yA + uA + vA
            var strength = VP8LoopFilter.Strength()
            let level = Int.random(in: 0...63, using: &rng)
            let interior = Int.random(in: 1...63, using: &rng)
            strength.interiorLimit = interior
            strength.limit = level == 0 ? 0 : 2 * level + interior
            strength.hevThreshold = [0, 1, 2][round % 3]
            strength.filterInner = round % 4 != 0
            let simple = round % 7 == 0
            let hasLeft = round % 5 != 1, hasTop = round % 6 != 2
            yA.withUnsafeMutableBufferPointer { y in uA.withUnsafeMutableBufferPointer { u in vA.withUnsafeMutableBufferPointer { v in
                VP8LoopFilter.filterMacroblock(y: y.baseAddress! + 16 * yStride + 16, yStride: yStride,
                                               u: u.baseAddress! + 8 * uvStride + 8, v: v.baseAddress! + 8 * uvStride + 8,
                                               uvStride: uvStride, strength: strength, simple: simple,
                                               hasLeft: hasLeft, hasTop: hasTop)
            } } }
            yB.withUnsafeMutableBufferPointer { y in uB.withUnsafeMutableBufferPointer { u in vB.withUnsafeMutableBufferPointer { v in
                VP8LoopFilter.filterMacroblockLanes(y: y.baseAddress! + 16 * yStride + 16, yStride: yStride,
                                                    u: u.baseAddress! + 8 * uvStride + 8, v: v.baseAddress! + 8 * uvStride + 8,
                                                    uvStride: uvStride, strength: strength, simple: simple,
                                                    hasLeft: hasLeft, hasTop: hasTop)
            } } }
            XCTAssertEqual(yA, yB, "luma, round \(round)")
            XCTAssertEqual(uA, uB, "U, round \(round)")
            XCTAssertEqual(vA, vB, "V, round \(round)")
            if yA != yB || uA != uB || vA != vB { return }
            if yA + uA + vA != original { changedRounds += 1 }
        }
        // The test means something only if the filter really changed pixels in most rounds.
        XCTAssertGreaterThan(changedRounds, 900)
    }
}

/// The shortcut inverse transforms against the full one, on the blocks they are chosen for.
final class TransformTwinTests: XCTestCase {
    func testDCOnlyAndThreeCoefficientTransformsEqualTheFullOne() {
        var rng = SeededGenerator(seed: 0x7A5F)
        for round in 0..<20_000 {
            var coefficients = [Int16](repeating: 0, count: 16)
            let range: ClosedRange<Int16> = round % 4 == 3 ? Int16.min...Int16.max : round % 2 == 0 ? -2048...2047 : -40...40
            coefficients[0] = Int16.random(in: range, using: &rng)
            let kind: UInt32 = round % 3 == 0 ? 1 : 2
            if kind == 2 {
                coefficients[1] = Int16.random(in: range, using: &rng)
                coefficients[4] = Int16.random(in: range, using: &rng)
            }
            let pixels = (0..<16).map { _ in UInt8.random(in: 0...255, using: &rng) }
            var shortcut = pixels, full = pixels
            VP8Transform.add(kind: kind, coefficients, &shortcut, stride: 4)
            VP8Transform.inverseDCT(coefficients, &full, stride: 4)
            XCTAssertEqual(shortcut, full, "round \(round), kind \(kind), coefficients \(coefficients)")
            if shortcut != full { return }
        }
    }
}

/// The 16-bit lane inverse DCT against the scalar one.
final class TransformLaneTwinTests: XCTestCase {
    /// Within ±2 048 the lanes themselves must be exact: random blocks at several scales, and
    /// every sign pattern of ±2 048 (the largest sums the lanes must hold), over dark, bright and
    /// random pixels.
    func testLaneTransformEqualsTheScalarOneWithinItsLimit() {
        var rng = SeededGenerator(seed: 0x1DC7)
        let limit = Int(VP8Transform.laneLimit)
        func check(_ coefficients: [Int16], _ pixels: [UInt8], _ label: @autoclosure () -> String) -> Bool {
            var lanes = pixels, scalar = pixels
            coefficients.withUnsafeBytes { raw in
                let rows01 = raw.loadUnaligned(as: VP8Lanes.Wide.self)
                let rows23 = raw.loadUnaligned(fromByteOffset: 16, as: VP8Lanes.Wide.self)
                XCTAssertTrue(VP8Transform.fitsLanes(rows01, rows23), label())
                lanes.withUnsafeMutableBufferPointer { VP8Transform.inverseDCTLanes(rows01, rows23, $0.baseAddress!, stride: 4) }
            }
            VP8Transform.inverseDCT(coefficients, &scalar, stride: 4)
            XCTAssertEqual(lanes, scalar, label())
            return lanes == scalar
        }
        for round in 0..<30_000 {
            let scale = [limit, 300, 40, 4][round % 4]
            let coefficients = (0..<16).map { _ in Int16(Int.random(in: -scale...scale, using: &rng)) }
            let pixels = (0..<16).map { _ in UInt8.random(in: 0...255, using: &rng) }
            guard check(coefficients, pixels, "round \(round), \(coefficients)") else { return }
        }
        for pattern in 0..<(1 << 16) {
            let coefficients = (0..<16).map { Int16(pattern >> $0 & 1 == 0 ? limit : -limit) }
            let pixels = [UInt8](repeating: [0, 255, 128][pattern % 3], count: 16)
            guard check(coefficients, pixels, "sign pattern \(pattern)") else { return }
        }
    }

    /// Any block through the transform the decoder calls (lanes, or the scalar one past the
    /// limit) gives the scalar result: hostile coefficients anywhere in Int16, and blocks just
    /// inside and just outside the limit.
    func testFastTransformEqualsTheScalarOneForAnyCoefficients() {
        var rng = SeededGenerator(seed: 0xFA57)
        let limit = Int(VP8Transform.laneLimit)
        var outside = 0
        for round in 0..<40_000 {
            var coefficients: [Int16]
            switch round % 3 {
            case 0: coefficients = (0..<16).map { _ in Int16.random(in: .min ... .max, using: &rng) }
            case 1: coefficients = (0..<16).map { _ in Int16(Int.random(in: -limit - 1...limit + 1, using: &rng)) }
            default:
                coefficients = (0..<16).map { _ in Int16(Int.random(in: -64...64, using: &rng)) }
                coefficients[Int.random(in: 0..<16, using: &rng)] = Int16([limit, -limit, limit + 1, -limit - 1][round / 3 % 4])
            }
            if coefficients.contains(where: { abs(Int($0)) > limit }) { outside += 1 }
            let pixels = (0..<16).map { _ in UInt8.random(in: 0...255, using: &rng) }
            var fast = pixels, scalar = pixels
            VP8Transform.add(kind: 3, coefficients, &fast, stride: 4)
            VP8Transform.inverseDCT(coefficients, &scalar, stride: 4)
            XCTAssertEqual(fast, scalar, "round \(round), \(coefficients)")
            if fast != scalar { return }
        }
        // Both routes were taken.
        XCTAssertGreaterThan(outside, 10_000)
        XCTAssertLessThan(outside, 30_000)
    }
}

/// RGB rows from the 16-pixel blocks stay inside their row (the blocks' last store reaches one
/// byte further, so a block needs a pixel after it).
final class RGBRowBoundsTests: XCTestCase {
    func testRGBConversionWritesNothingPastTheRow() {
        var rng = SeededGenerator(seed: 0x3B7E)
        for width in 1...70 {
            let y = (0..<width).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let u = (0..<width).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let v = (0..<width).map { _ in UInt8.random(in: 0...255, using: &rng) }
            var fast = [UInt8](repeating: 0xEE, count: width * 3 + 4), careful = fast
            VP8YUVConverter.convertRow(y: y, u: u, v: v, width: width, channels: 3, out: &fast)
            VP8YUVConverter.convertScalar(y: y, u: u, v: v, from: 0, to: width, channels: 3, out: &careful)
            XCTAssertEqual(fast, careful, "width \(width)")
            XCTAssertEqual(Array(fast.suffix(4)), [0xEE, 0xEE, 0xEE, 0xEE], "width \(width)")
        }
    }
}

/// The lossless predictors' lane kernels against their channel-by-channel twins.
final class PredictorKernelTwinTests: XCTestCase {
    func testLaneKernelsMatchTheScalarOnes() {
        var rng = SeededGenerator(seed: 0x5E1EC7)
        // Random pixels, plus pixels built from the extreme channel values 0, 1, 127, 128, 254, 255.
        let extremes: [UInt32] = [0, 1, 127, 128, 254, 255]
        func pixel(_ round: Int) -> UInt32 {
            if round % 2 == 0 { return UInt32.random(in: 0...UInt32.max, using: &rng) }
            var p: UInt32 = 0
            for k in 0..<4 { p |= extremes[Int.random(in: 0..<6, using: &rng)] << (8 * UInt32(k)) }
            return p
        }
        typealias P = VP8LPixelArithmetic
        for round in 0..<100_000 {
            let a = pixel(round), b = pixel(round), c = pixel(round)
            XCTAssertEqual(P.clampAddSubtractFull(a, b, c), P.clampAddSubtractFullScalar(a, b, c))
            XCTAssertEqual(P.clampAddSubtractHalf(a, b), P.clampAddSubtractHalfScalar(a, b))
            XCTAssertEqual(P.select(left: a, top: b, topLeft: c), P.selectScalar(left: a, top: b, topLeft: c))
            if P.clampAddSubtractHalf(a, b) != P.clampAddSubtractHalfScalar(a, b) { return }
        }
    }
}

/// The word-at-a-time ARGB row writer against the byte-by-byte one, for every short width.
final class RowWriterTwinTests: XCTestCase {
    func testWordStoresEqualByteStoresAndStayInsideTheRow() {
        var rng = SeededGenerator(seed: 0xA4C8)
        for count in 1...40 {
            let argb = (0..<count).map { _ in UInt32.random(in: 0...UInt32.max, using: &rng) }
            for channels in [3, 4] {
                // A guard byte after the row shows any write past it.
                var fast = [UInt8](repeating: 0xEE, count: count * channels + 1), careful = fast
                VP8LRowWriter.write(argb, count: count, channels: channels, out: &fast)
                VP8LRowWriter.writeScalar(argb, count: count, channels: channels, out: &careful)
                XCTAssertEqual(fast, careful, "\(count) pixels, \(channels) channels")
                XCTAssertEqual(fast.last, 0xEE)
            }
        }
    }
}

/// The lossless colour transform's 16-bit lanes against the channel-by-channel formula.
final class ColorTransformTwinTests: XCTestCase {
    func testLanesMatchTheScalarTransformForEveryMultiplierAndRowWidth() {
        var rng = SeededGenerator(seed: 0xC010_4)
        // Multipliers and channels at the signed-byte extremes (−128, −1, 0, 1, 127) and at random.
        let extremes: [UInt32] = [0x80, 0xFF, 0, 1, 0x7F]
        func byte(_ round: Int) -> UInt32 {
            round % 3 == 0 ? extremes[Int.random(in: 0..<5, using: &rng)] : UInt32.random(in: 0...255, using: &rng)
        }
        for round in 0..<3_000 {
            let element = byte(round) | byte(round) << 8 | byte(round) << 16 | UInt32.random(in: 0...255, using: &rng) << 24
            let width = 1 + round % 23
            let pixels = (0..<width).map { _ in byte(round) | byte(round) << 8 | byte(round) << 16 | byte(round) << 24 }
            var lanes = pixels, scalar = pixels
            // One block as wide as the row (sizeBits 5), so the lanes take all but the last width % 4.
            lanes.withUnsafeMutableBufferPointer { row in
                VP8LInverseTransforms.undoColorTransform(row: row, y: 0, width: width, sizeBits: 5, blocksPerRow: 1,
                                                         elements: [element])
            }
            scalar.withUnsafeMutableBufferPointer { row in
                VP8LInverseTransforms.undoColorTransformScalar(row.baseAddress!, from: 0, to: width, element: element)
            }
            XCTAssertEqual(lanes, scalar, "round \(round), element \(String(element, radix: 16))")
            if lanes != scalar { return }
        }
    }

    func testBlocksNarrowerThanTheRowTakeTheirOwnMultipliers() {
        var rng = SeededGenerator(seed: 0xB10C)
        // sizeBits 2: blocks of 4 pixels; a 13-pixel row has 4 blocks, the last one pixel wide.
        let elements = (0..<4).map { _ in UInt32.random(in: 0...UInt32.max, using: &rng) }
        let pixels = (0..<13).map { _ in UInt32.random(in: 0...UInt32.max, using: &rng) }
        var lanes = pixels, scalar = pixels
        lanes.withUnsafeMutableBufferPointer { row in
            VP8LInverseTransforms.undoColorTransform(row: row, y: 0, width: 13, sizeBits: 2, blocksPerRow: 4, elements: elements)
        }
        scalar.withUnsafeMutableBufferPointer { row in
            for block in 0..<4 {
                VP8LInverseTransforms.undoColorTransformScalar(row.baseAddress!, from: 4 * block, to: min(13, 4 * block + 4),
                                                               element: elements[block])
            }
        }
        XCTAssertEqual(lanes, scalar)
    }
}

final class BoolDecoderTwinTests: XCTestCase {
    /// The token loop's table-driven renormalisation against the leading-zero count: same bits,
    /// same positions and flags, over random data, every probability (0 included), partitions
    /// that end inside the data and partitions still arriving.
    func testShiftTableGivesTheSameBitsAsTheLeadingZeroCount() {
        let table = VP8BoolDecoder.renormalisingShifts
        XCTAssertEqual(table.count, 256)
        for range in 1...255 { XCTAssertEqual(Int(table[range]), UInt32(range).leadingZeroBitCount - 24, "range \(range)") }
        XCTAssertEqual(table[128], 0)
        XCTAssertEqual(table[1], 7)
        var rng = SeededGenerator(seed: 0xB001)
        let shifts = table.withUnsafeBufferPointer { UnsafeMutablePointer<UInt8>.allocate(capacity: $0.count) }
        defer { shifts.deallocate() }
        shifts.initialize(from: table, count: table.count)
        for round in 0..<200 {
            let count = Int.random(in: 1...300, using: &rng)
            let data = (0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) }
            // Some partitions end early, some have not all arrived (received < end).
            let end = round % 3 == 0 ? count / 2 : count
            let received = round % 5 == 0 ? count / 3 : count
            var plain = VP8BoolDecoder(start: 0, end: end), tabled = plain
            var plainBits: [Bool] = [], tabledBits: [Bool] = []
            data.withUnsafeBufferPointer { bytes in
                let base = bytes.baseAddress!
                for step in 0..<(count * 10) {
                    let probability = round == 0 ? step % 256 : Int.random(in: 0...255, using: &rng)
                    plainBits.append(plain.readBool(probability, base, received))
                    tabledBits.append(tabled.readBool(probability, base, received, shifts: shifts))
                }
            }
            XCTAssertEqual(plainBits, tabledBits, "round \(round)")
            XCTAssertEqual(plain.position, tabled.position, "round \(round)")
            XCTAssertEqual(plain.endOfData, tabled.endOfData, "round \(round)")
            XCTAssertEqual(plain.starved, tabled.starved, "round \(round)")
            if plainBits != tabledBits { return }
        }
    }
}
