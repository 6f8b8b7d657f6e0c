import ImageCore
@testable import PNGCodec
import TestSupport
import XCTest

/// Every PNGEncoder mode (levels, fast, Adam7, palette, 1/2/4-bit gray, 16-bit) read back by our
/// decoder, whole and in pieces, with the IHDR each image must get; the vector filters against
/// their scalar twin.
final class EncoderModesTests: XCTestCase {
    /// IHDR fields of an encoded file (PNG 11.2.2): bytes 16... after the signature and chunk head.
    private struct Header: Equatable, CustomStringConvertible {
        var bitDepth: UInt8, colorType: UInt8, interlace: UInt8
        init(_ png: [UInt8]) {
            bitDepth = png[24]; colorType = png[25]; interlace = png[28]
        }
        init(bitDepth: UInt8, colorType: UInt8, interlace: UInt8) {
            self.bitDepth = bitDepth; self.colorType = colorType; self.interlace = interlace
        }
        var description: String { "depth \(bitDepth) type \(colorType) interlace \(interlace)" }
    }

    /// An image of `format` whose pixels take `colors` distinct values (or noise when nil),
    /// in a seeded random order.
    private static func image(_ format: PixelFormat, width: Int, height: Int, colors: Int?, seed: UInt64,
                              graySamples: [UInt8]? = nil) -> Image {
        var rng = SeededGenerator(seed: seed)
        let bpp = format.bytesPerPixel
        var pixels = [UInt8](repeating: 0, count: width * height * bpp)
        let palette: [[UInt8]]? = colors.map { count in
            (0..<count).map { k in (0..<bpp).map { byte in UInt8(truncatingIfNeeded: k &* 37 &+ byte &* 91 &+ (k >> 3) &* byte) } }
        }
        for p in 0..<(width * height) {
            if let samples = graySamples {
                pixels[p] = samples[Int.random(in: 0..<samples.count, using: &rng)]
            } else if let palette {
                // Every colour at least once while there is room, then random ones.
                let k = p < palette.count ? p : Int.random(in: 0..<palette.count, using: &rng)
                for byte in 0..<bpp { pixels[p * bpp + byte] = palette[k][byte] }
            } else {
                for byte in 0..<bpp { pixels[p * bpp + byte] = UInt8(truncatingIfNeeded: p &* 3 &+ byte &* 50 &+ Int.random(in: 0...9, using: &rng)) }
            }
        }
        return Image(width: width, height: height, format: format, pixels: pixels)
    }

    /// What the encoder must choose, worked out independently: distinct colours, gray sample sets.
    private static func expectedHeader(_ image: Image, interlaced: Bool) -> Header {
        let interlace: UInt8 = interlaced ? 1 : 0
        switch image.format {
        case .gray8:
            let values = Set(image.pixels)
            let depth: UInt8 = values.isSubset(of: [0, 255]) ? 1 : values.allSatisfy { $0 % 85 == 0 } ? 2
                : values.allSatisfy { $0 % 17 == 0 } ? 4 : 8
            return Header(bitDepth: depth, colorType: 0, interlace: interlace)
        case .rgb8, .rgba8:
            let bpp = image.format.bytesPerPixel
            let colors = Set((0..<(image.width * image.height)).map { Array(image.pixels[($0 * bpp)..<($0 * bpp + bpp)]) })
            if colors.count <= 256 {
                let depth: UInt8 = colors.count <= 2 ? 1 : colors.count <= 4 ? 2 : colors.count <= 16 ? 4 : 8
                return Header(bitDepth: depth, colorType: 3, interlace: interlace)
            }
            return Header(bitDepth: 8, colorType: image.format == .rgb8 ? 2 : 6, interlace: interlace)
        case .grayAlpha8: return Header(bitDepth: 8, colorType: 4, interlace: interlace)
        case .gray16: return Header(bitDepth: 16, colorType: 0, interlace: interlace)
        case .grayAlpha16: return Header(bitDepth: 16, colorType: 4, interlace: interlace)
        case .rgb16: return Header(bitDepth: 16, colorType: 2, interlace: interlace)
        case .rgba16: return Header(bitDepth: 16, colorType: 6, interlace: interlace)
        case .cmyk8: return Header(bitDepth: 8, colorType: 2, interlace: interlace)
        }
    }

    /// The images every mode is tried on, at one size.
    private static func cases(width: Int, height: Int) -> [(String, Image)] {
        let seed = UInt64(width * 100 + height)
        return [
            ("rgb8 noise", image(.rgb8, width: width, height: height, colors: nil, seed: seed)),
            ("rgba8 noise", image(.rgba8, width: width, height: height, colors: nil, seed: seed)),
            ("rgb8 2 colours", image(.rgb8, width: width, height: height, colors: 2, seed: seed)),
            ("rgb8 4 colours", image(.rgb8, width: width, height: height, colors: 4, seed: seed)),
            ("rgb8 13 colours", image(.rgb8, width: width, height: height, colors: 13, seed: seed)),
            ("rgb8 200 colours", image(.rgb8, width: width, height: height, colors: 200, seed: seed)),
            ("rgba8 3 colours", image(.rgba8, width: width, height: height, colors: 3, seed: seed)),
            ("rgba8 100 colours", image(.rgba8, width: width, height: height, colors: 100, seed: seed)),
            ("gray8 1-bit", image(.gray8, width: width, height: height, colors: nil, seed: seed, graySamples: [0, 255])),
            ("gray8 2-bit", image(.gray8, width: width, height: height, colors: nil, seed: seed, graySamples: [0, 85, 170, 255])),
            ("gray8 4-bit", image(.gray8, width: width, height: height, colors: nil, seed: seed, graySamples: [17, 34, 238, 255, 0])),
            ("gray8", image(.gray8, width: width, height: height, colors: nil, seed: seed)),
            ("grayAlpha8", image(.grayAlpha8, width: width, height: height, colors: nil, seed: seed)),
            ("gray16", image(.gray16, width: width, height: height, colors: nil, seed: seed)),
            ("grayAlpha16", image(.grayAlpha16, width: width, height: height, colors: nil, seed: seed)),
            ("rgb16", image(.rgb16, width: width, height: height, colors: nil, seed: seed)),
            ("rgba16", image(.rgba16, width: width, height: height, colors: nil, seed: seed)),
        ]
    }

    func testEveryLayoutLevelAndInterlaceRoundTripsAtOddSizes() throws {
        var checked = 0
        for (width, height) in [(1, 1), (1, 9), (9, 1), (17, 13)] {
            for (name, image) in Self.cases(width: width, height: height) {
                for interlaced in [false, true] {
                    let expected = Self.expectedHeader(image, interlaced: interlaced)
                    for level in [0, 1, 2, 6, 9] {
                        let png = PNGEncoder(compressionLevel: level, interlaced: interlaced).encode(image)
                        let label = "\(name) \(width)×\(height) level \(level) interlaced \(interlaced)"
                        XCTAssertEqual(Header(png), expected, label)
                        XCTAssertEqual(try PNGDecoder().decode(png), image, label)
                        checked += 1
                    }
                }
            }
        }
        XCTAssertEqual(checked, 4 * 17 * 2 * 5)
    }

    func testPaletteAndLowBitOutputDecodeTheSameInEveryChunking() throws {
        for (name, image) in Self.cases(width: 17, height: 13) {
            for interlaced in [false, true] {
                let png = PNGEncoder.fast.with(interlaced: interlaced).encode(image)
                let pieces = [Chunking.fixed(png, size: 1), Chunking.fixed(png, size: 7), Chunking.fixed(png, size: 4096),
                              Chunking.random(png, seed: 3, maxSize: 40)]
                for split in pieces {
                    XCTAssertEqual(try PNGTestSupport.decode(split), image, "\(name) interlaced \(interlaced) \(split.count) pieces")
                }
            }
        }
    }

    func testTwoHundredFiftySixColoursMakeAPaletteAnd257DoNot() throws {
        for (count, colorType) in [(256, UInt8(3)), (257, UInt8(2))] {
            let image = Self.image(.rgb8, width: 20, height: 15, colors: count, seed: 8)
            let png = PNGEncoder().encode(image)
            XCTAssertEqual(Header(png), Header(bitDepth: 8, colorType: colorType, interlace: 0), "\(count) colours")
            XCTAssertEqual(try PNGDecoder().decode(png), image)
        }
    }

    func testOpaqueRGBAPaletteKeepsATRNSChunkSoItDecodesAsRGBA() throws {
        let image = Image(width: 3, height: 1, format: .rgba8, pixels: [1, 2, 3, 255, 4, 5, 6, 255, 1, 2, 3, 255])
        let png = PNGEncoder().encode(image)
        let chunks = PNGFileEditor(png).chunks.map(\.type)
        XCTAssertEqual(chunks, ["IHDR", "PLTE", "tRNS", "IDAT", "IEND"])
        let decoded = try PNGDecoder().decode(png)
        XCTAssertEqual(decoded.format, .rgba8)
        XCTAssertEqual(decoded, image)
    }

    func testReductionCanBeTurnedOff() throws {
        let image = Self.image(.rgb8, width: 9, height: 9, colors: 2, seed: 1)
        let png = PNGEncoder(reducesColorType: false).encode(image)
        XCTAssertEqual(Header(png), Header(bitDepth: 8, colorType: 2, interlace: 0))
        XCTAssertEqual(try PNGDecoder().decode(png), image)
    }

    func testTheFastModeIsLevelOneAndSmallerThanStoredOnAPhoto() throws {
        XCTAssertEqual(PNGEncoder.fast.compressionLevel, 1)
        let photo = try PNGTestSupport.decode(try Fixtures.bytes("corpus/png/extras/photo_900x600_adam7.png"))
        let fast = PNGEncoder.fast.encode(photo), stored = PNGEncoder(compressionLevel: 0).encode(photo)
        let standard = PNGEncoder().encode(photo)
        XCTAssertEqual(try PNGDecoder().decode(fast), photo)
        XCTAssertEqual(try PNGDecoder().decode(standard), photo)
        // Filtered photo rows compress to well under 3/4 of their size even in the fast mode,
        // and the fast mode stays within 10 % of level 6.
        XCTAssertLessThan(fast.count * 4, stored.count * 3)
        XCTAssertLessThan(fast.count * 10, standard.count * 11)
    }

    /// The vector kernels and the one-pass choice against the scalar twin, for every filter,
    /// pixel size 1–8 and widths around the 16-byte step.
    func testVectorFiltersAndFilterChoiceMatchTheScalarTwin() {
        var rng = SeededGenerator(seed: 99)
        for stride in 1...8 {
            for count in [1, 2, 3, 7, 15, 16, 17, 31, 32, 33, 47, 100, 4100] {
                // Smooth rows (small residuals) and noisy rows, so every filter wins somewhere.
                for smooth in [false, true] {
                    let prior = (0..<count).map { i in smooth ? UInt8(truncatingIfNeeded: i / 3) : UInt8.random(in: 0...255, using: &rng) }
                    let row = (0..<count).map { i in smooth ? UInt8(truncatingIfNeeded: i / 3 + Int.random(in: 0...2, using: &rng)) : UInt8.random(in: 0...255, using: &rng) }
                    var scalarCosts: [Int] = []
                    for type in FilterType.allCases {
                        var vector = [UInt8](repeating: 0, count: count), scalar = vector
                        VectorRowFilter.apply(type, row: row, prior: prior, output: &vector, count: count, stride: stride)
                        RowFilter.apply(type, row: row, prior: prior, output: &scalar, count: count, stride: stride)
                        XCTAssertEqual(vector, scalar, "\(type) stride \(stride) count \(count)")
                        scalarCosts.append(RowFilter.cost(scalar, count: count))
                    }
                    let expected = FilterType(rawValue: UInt8(scalarCosts.firstIndex(of: scalarCosts.min() ?? 0) ?? 0))
                    XCTAssertEqual(VectorRowFilter.cheapestFilter(row: row, prior: prior, count: count, stride: stride), expected,
                                   "choice stride \(stride) count \(count) smooth \(smooth)")
                }
            }
        }
    }

    func testPaethVectorPredictorMatchesTheScalarOneOnEveryTriple() {
        // Every c for a and b in steps of 5 (0 and 255 included), 16 lanes at a time.
        var mismatches = 0
        for a in stride(from: 0, through: 255, by: 5) {
            for b in stride(from: 0, through: 255, by: 5) {
                for c0 in stride(from: 0, to: 256, by: 16) {
                    var cs = SIMD16<UInt8>()
                    for lane in 0..<16 { cs[lane] = UInt8(c0 + lane) }
                    let p = VectorRowFilter.paeth(SIMD16(repeating: UInt8(a)), SIMD16(repeating: UInt8(b)), cs)
                    for lane in 0..<16 where p[lane] != RowUnfilter.paeth(UInt8(a), UInt8(b), UInt8(c0 + lane)) { mismatches += 1 }
                }
            }
        }
        XCTAssertEqual(mismatches, 0)
    }
}

private extension PNGEncoder {
    func with(interlaced: Bool) -> PNGEncoder {
        var copy = self
        copy.interlaced = interlaced
        return copy
    }
}
