import TestSupport
@testable import WebPCodec
import XCTest

/// Fast paths against their careful scalar twins.
final class KernelTwinTests: XCTestCase {
    func testSIMDYUVToRGBMatchesTheScalarFormulaForEverySample() {
        var rng = SeededGenerator(seed: 0xC0FFEE)
        // Every Y, U and V value shows up: 8 lanes per call, extremes included.
        for round in 0..<20_000 {
            var y = [UInt8](repeating: 0, count: 8), u = y, v = y
            for i in 0..<8 {
                y[i] = round < 256 ? UInt8(round) : UInt8.random(in: 0...255, using: &rng)
                u[i] = UInt8(truncatingIfNeeded: round &* 7 &+ i)
                v[i] = UInt8.random(in: 0...255, using: &rng)
            }
            for channels in [3, 4] {
                var simd = [UInt8](repeating: 0, count: 8 * channels)
                var scalar = simd
                VP8YUVConverter.convertRow(y: y, u: u, v: v, width: 8, channels: channels, out: &simd)
                for i in 0..<8 {  // width 1: the scalar tail only
                    scalar.withUnsafeMutableBufferPointer { out in
                        VP8YUVConverter.convertRow(y: [y[i]], u: [u[i]], v: [v[i]], width: 1, channels: channels,
                                                   out: out.baseAddress! + i * channels)
                    }
                }
                XCTAssertEqual(simd, scalar, "round \(round), \(channels) channels")
                if simd != scalar { return }
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
