import XCTest
import TestSupport
@testable import JPEGCodec

/// The triangle IDCT (coefficients 0, 1, 2, 8, 9, 16 only) gives what the full IDCT gives.
final class TriangleInverseDCTTests: XCTestCase {
    private func transforms(_ block: [Int32]) -> (full: [UInt8], triangle: [UInt8]) {
        var full = [UInt8](repeating: 0, count: 64), triangle = [UInt8](repeating: 1, count: 64)
        var workspace = [Int32](repeating: 0, count: 64), triangleWorkspace = workspace
        block.withUnsafeBufferPointer { input in
            guard let input = input.baseAddress else { return }
            workspace.withUnsafeMutableBufferPointer { work in
                full.withUnsafeMutableBufferPointer { out in
                    guard let work = work.baseAddress, let out = out.baseAddress else { return }
                    InverseDCT.transform8x8(input, workspace: work, output: out, stride: 8)
                }
            }
            triangleWorkspace.withUnsafeMutableBufferPointer { work in
                triangle.withUnsafeMutableBufferPointer { out in
                    guard let work = work.baseAddress, let out = out.baseAddress else { return }
                    TriangleInverseDCT.transform(input, workspace: work, output: out, stride: 8)
                }
            }
        }
        return (full, triangle)
    }

    func testEqualsTheFullTransformForEveryTriangleBlock() {
        var rng = SeededGenerator(seed: 2024)
        // Ranges a valid file gives (dequantized values of 8-bit JPEG), then what corrupt data gives:
        // 16-bit values whose first pass leaves 15 bits (the full transform's saturating path), and
        // values beyond 16 bits (taken modulo 2^16).
        let ranges: [ClosedRange<Int32>] = [-64...64, -1024...1024, -4096...4096, -32768...32767, -(1 << 30)...(1 << 30)]
        var flat = 0, varied = 0
        for range in ranges {
            for _ in 0..<3000 {
                var block = [Int32](repeating: 0, count: 64)
                for index in [0, 1, 2, 8, 9, 16] where Int.random(in: 0..<4, using: &rng) != 0 {
                    block[index] = Int32.random(in: range, using: &rng)
                }
                let (full, triangle) = transforms(block)
                XCTAssertEqual(triangle, full, "block \(block.enumerated().filter { $0.element != 0 })")
                if Set(full).count == 1 { flat += 1 } else { varied += 1 }
            }
        }
        // The blocks exercise real gradients, not only clamped or flat ones.
        XCTAssertGreaterThan(varied, 8000)
        XCTAssertGreaterThan(flat, 10)
    }
}
