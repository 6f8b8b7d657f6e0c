import ImageCore
import PNGCodec
import TestSupport
import XCTest

/// Every filter type and pixel size, through the decoder, against a plain transcription of PNG 9.2.
///
/// Rows are built with random filter types and bytes, then reconstructed byte by byte
/// (the reference) and by the decoder (vector and specialised kernels), for pixel sizes 1 to 8
/// bytes and odd widths so that each kernel's tail is exercised.
final class FilterKernelTests: XCTestCase {
    private typealias B = TestPNGBuilder

    func testEveryFilterTypeForEveryPixelSizeMatchesTheSpec() throws {
        try checkEveryKernel(seed: 0xF117E5, sampleRange: 0...255)
    }

    /// Paeth's ties (pa = pb, pa = pc, pb = pc) decide between a, b and c; random bytes rarely
    /// tie, so here the filtered bytes are 0 ... 2 over rows that stay near each other: most
    /// pixels tie somewhere, in every kernel (vector lanes and scalar tails).
    func testPaethTiesPickAThenBThenCInEveryKernel() throws {
        try checkEveryKernel(seed: 0x7135, sampleRange: 0...2, onlyPaeth: true)
    }

    /// 8-bit RGB asked for as rgba8 is unfiltered straight into RGBA pixels (`RGBToRGBAUnfilter`);
    /// its twin is the RGB kernel followed by the conversion, i.e. the spec's reconstruction
    /// with alpha 255.
    func testRGBRowsUnfilteredIntoRGBAMatchTheSpec() throws {
        try checkEveryKernel(seed: 0xA1FA, sampleRange: 0...255, onlyRGB: true)
        try checkEveryKernel(seed: 0x7136, sampleRange: 0...2, onlyPaeth: true, onlyRGB: true)
    }

    /// Random rows of every filter type (or only Paeth) for every pixel size (or only 8-bit RGB,
    /// decoded as rgba8), checked against ``SpecUnfilter/reconstruct(_:types:stride:)``.
    private func checkEveryKernel(seed: UInt64, sampleRange: ClosedRange<UInt8>, onlyPaeth: Bool = false,
                                  onlyRGB: Bool = false) throws {
        // (bit depth, colour type) → bytes per pixel: 8/0 → 1, 8/4 → 2, 8/2 → 3, 8/6 → 4, 16/2 → 6, 16/6 → 8.
        let allKinds: [(Int, Int, Int)] = [(8, 0, 1), (8, 4, 2), (8, 2, 3), (8, 6, 4), (16, 4, 4), (16, 2, 6), (16, 6, 8)]
        let kinds = onlyRGB ? [(8, 2, 3)] : allKinds
        var rng = SeededGenerator(seed: seed)
        for (depth, colorType, stride) in kinds {
            for width in [1, 2, 5, 17, 64] {
                let height = 12
                let rowBytes = width * stride
                var filtered: [[UInt8]] = []
                var types: [UInt8] = []
                for row in 0..<height {
                    if onlyPaeth {
                        types.append(row == 0 ? 0 : 4)
                    } else {
                        types.append(UInt8(row % 5 == 0 ? Int.random(in: 0...4, using: &rng) : row % 5))
                    }
                    filtered.append((0..<rowBytes).map { _ in UInt8.random(in: sampleRange, using: &rng) })
                }
                let stream = zip(types, filtered).flatMap { [$0] + $1 }
                let file = B.file([B.ihdr(width: width, height: height, bitDepth: depth, colorType: colorType),
                                   B.idat(stream), B.iend])
                if onlyRGB {
                    let image = try PNGDecoder(options: DecodingOptions(preferredFormat: .rgba8)).decode(file)
                    let rgb = SpecUnfilter.reconstruct(filtered, types: types, stride: stride)
                    var rgba: [UInt8] = []
                    for pixel in Swift.stride(from: 0, to: rgb.count, by: 3) { rgba += rgb[pixel..<(pixel + 3)] + [255] }
                    XCTAssertEqual(image.pixels, rgba, "RGB as rgba8, width \(width)")
                } else {
                    let image = try PNGDecoder().decode(file)
                    XCTAssertEqual(image.pixels, SpecUnfilter.reconstruct(filtered, types: types, stride: stride),
                                   "\(stride) bytes per pixel, width \(width)")
                }
            }
        }
    }
}
