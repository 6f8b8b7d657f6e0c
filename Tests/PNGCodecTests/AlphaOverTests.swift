@testable import PNGCodec
import TestSupport
import XCTest

/// `AlphaOver` is the PNG alpha compositing formula rounded once: checked against the formula
/// in real numbers (within half a step), and its special cases.
final class AlphaOverTests: XCTestCase {
    /// The formula in Double: (Co, αo) in sample units, for samples of maximum `top`.
    private func exact(_ s: [Double], _ d: [Double], top: Double) -> [Double] {
        let sa = s[3] / top, da = d[3] / top
        let ao = sa + da * (1 - sa)
        guard ao > 0 else { return [0, 0, 0, 0] }
        var result: [Double] = []
        for c in 0..<3 {
            let mixed: Double = sa * s[c] + da * (1 - sa) * d[c]
            result.append(mixed / ao)
        }
        result.append(ao * top)
        return result
    }

    private func blend8(_ source: [UInt8], over canvas: inout [UInt8], count: Int) {
        source.withUnsafeBufferPointer { s in
            canvas.withUnsafeMutableBufferPointer { d in
                if let from = s.baseAddress, let to = d.baseAddress { AlphaOver.blendRow8(from, over: to, count: count) }
            }
        }
    }

    func testEightBitResultsAreTheFormulaRoundedToNearest() {
        var rng = SeededGenerator(seed: 8)
        for _ in 0..<200_000 {
            let source = (0..<4).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let canvas = (0..<4).map { _ in UInt8.random(in: 0...255, using: &rng) }
            var out = canvas
            blend8(source, over: &out, count: 1)
            if source[3] == 0 { XCTAssertEqual(out, canvas); continue }
            let expected = exact(source.map(Double.init), canvas.map(Double.init), top: 255)
            for c in 0..<4 {
                XCTAssertLessThanOrEqual(abs(Double(out[c]) - expected[c]), 0.5 + 1e-9, "\(source) over \(canvas)")
            }
        }
    }

    func testSixteenBitResultsAreTheFormulaRoundedToNearest() {
        var rng = SeededGenerator(seed: 16)
        for _ in 0..<100_000 {
            let source = (0..<4).map { _ in UInt16.random(in: 0...65535, using: &rng) }
            let canvas = (0..<4).map { _ in UInt16.random(in: 0...65535, using: &rng) }
            let bytes = { (v: [UInt16]) in v.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] } }
            let s8 = bytes(source)
            var d8 = bytes(canvas)
            s8.withUnsafeBufferPointer { s in
                d8.withUnsafeMutableBufferPointer { d in
                    if let from = s.baseAddress, let to = d.baseAddress { AlphaOver.blendRow16(from, over: to, count: 1) }
                }
            }
            let out = (0..<4).map { Double(UInt16(d8[2 * $0]) << 8 | UInt16(d8[2 * $0 + 1])) }
            if source[3] == 0 { XCTAssertEqual(out, canvas.map(Double.init)); continue }
            let expected = exact(source.map(Double.init), canvas.map(Double.init), top: 65535)
            for c in 0..<4 {
                // Double carries ~16 significant digits: far more than 16-bit samples need.
                XCTAssertLessThanOrEqual(abs(out[c] - expected[c]), 0.5 + 1e-6, "\(source) over \(canvas)")
            }
        }
    }

    func testOpaqueSourceReplacesAndTransparentCanvasTakesTheSource() {
        var canvas: [UInt8] = [10, 20, 30, 40, 1, 2, 3, 0]
        let source: [UInt8] = [200, 100, 50, 255, 9, 8, 7, 77]
        blend8(source, over: &canvas, count: 2)
        XCTAssertEqual(canvas, source)
    }

    func testHalfGreenOverOpaqueRedIsTheTextbookMix() {
        var canvas: [UInt8] = [255, 0, 0, 255]
        let source: [UInt8] = [0, 255, 0, 128]
        blend8(source, over: &canvas, count: 1)
        // 255 × 127/255 = 127 red, 255 × 128/255 = 128 green, alpha stays opaque.
        XCTAssertEqual(canvas, [127, 128, 0, 255])
    }
}
