@testable import ColorManagement
import ImageCore
import TestSupport
import XCTest

/// The CMYK fast path (one tetrahedron in a precomputed float cyan plane) against its twin (two
/// integer tetrahedra and a lerp per pixel, LittleCMS's scheme) on real press profiles.
final class CMYKGridKernelTests: XCTestCase {
    /// `pixelsPerCyan` pixels for each of `cyans`, the other inks from a seeded generator.
    private func image(cyans: [UInt8], pixelsPerCyan: Int) -> Image {
        var random = SeededGenerator(seed: 0x5EED_C4A7)
        var pixels: [UInt8] = []
        for index in 0..<(cyans.count * pixelsPerCyan) {
            pixels.append(cyans[index % cyans.count])
            for _ in 0..<3 { pixels.append(UInt8(truncatingIfNeeded: random.next())) }
        }
        return Image(width: pixelsPerCyan, height: cyans.count, format: .cmyk8, pixels: pixels)
    }

    private func kernel(_ name: String, inverted: Bool) throws -> GridKernel {
        let profile = try ICCProfile(try ColorCharts.profile(name))
        let converter = try XCTUnwrap(try ColorConverter(source: .iccProfile(profile), format: .cmyk8, cmykIsInverted: inverted))
        guard case .grid(let grid) = converter.kernel else { throw XCTSkip("not a grid kernel") }
        return grid
    }

    private func run(_ image: Image, perPixel: Bool, kernel: GridKernel) -> (rgb: [UInt8], planes: Int) {
        let count = image.width * image.height
        var rgb = [UInt8](repeating: 0, count: 3 * count)
        var planes = 0
        image.pixels.withUnsafeBufferPointer { source in
            rgb.withUnsafeMutableBufferPointer { destination in
                guard let s = source.baseAddress, let d = destination.baseAddress else { return }
                if perPixel { kernel.runCMYK8PerPixel(s, d, outputStride: 3, count: count) }
                else { planes = kernel.runCMYK8(s, d, outputStride: 3, count: count) }
            }
        }
        return (rgb, planes)
    }

    func testCyanPlanesMatchTwoTetrahedraPerPixel() throws {
        for inverted in [false, true] {
            let grid = try kernel("USWebCoatedSWOP", inverted: inverted)
            // 0 and 255 fall on grid nodes, the others inside cells: each gets a plane.
            let cyans: [UInt8] = [0, 1, 37, 64, 100, 128, 200, 254, 255]
            let input = image(cyans: cyans, pixelsPerCyan: GridKernel.minimumPixelsPerCyanPlane)
            let fast = run(input, perPixel: false, kernel: grid)
            let twin = run(input, perPixel: true, kernel: grid)
            XCTAssertEqual(fast.planes, 9)
            // Float planes against 16-bit integer steps, each rounded its own way: at most 1 apart.
            let differences = zip(fast.rgb, twin.rgb).map { abs(Int($0) - Int($1)) }
            XCTAssertLessThanOrEqual(differences.max() ?? 0, 1)
            XCTAssertLessThan(differences.filter { $0 != 0 }.count, differences.count / 100)
        }
    }

    func testRareCyanSamplesGoPerPixel() throws {
        let grid = try kernel("CoatedFOGRA39", inverted: true)
        // One pixel short of a plane for each cyan: every pixel goes the per-pixel way.
        let input = image(cyans: [3, 77, 150], pixelsPerCyan: GridKernel.minimumPixelsPerCyanPlane - 1)
        let fast = run(input, perPixel: false, kernel: grid)
        XCTAssertEqual(fast.planes, 0)
        XCTAssertEqual(fast.rgb, run(input, perPixel: true, kernel: grid).rgb)
    }

    func testWiderOutputKeepsItsFourthByte() throws {
        // RGB into 4-byte pixels: the fourth byte is left alone.
        let grid = try kernel("USWebCoatedSWOP", inverted: true)
        let input = image(cyans: [20, 90], pixelsPerCyan: GridKernel.minimumPixelsPerCyanPlane)
        let count = input.width * input.height
        var rgba = [UInt8](repeating: 77, count: 4 * count)
        input.pixels.withUnsafeBufferPointer { source in
            rgba.withUnsafeMutableBufferPointer { destination in
                guard let s = source.baseAddress, let d = destination.baseAddress else { return }
                XCTAssertEqual(grid.runCMYK8(s, d, outputStride: 4, count: count), 2)
            }
        }
        XCTAssertTrue(stride(from: 3, to: rgba.count, by: 4).allSatisfy { rgba[$0] == 77 })
        let rgb = run(input, perPixel: false, kernel: grid).rgb
        XCTAssertEqual((0..<count).flatMap { rgba[(4 * $0)..<(4 * $0 + 3)] }, rgb)
    }
}
