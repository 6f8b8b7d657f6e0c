import ImageCore
import PNGCodec
import TestSupport
import XCTest

/// PNGEncoder output read back by our decoder.
final class EncoderRoundTripTests: XCTestCase {
    static let encodableFormats: [PixelFormat] = [.gray8, .grayAlpha8, .rgb8, .rgba8, .gray16, .grayAlpha16, .rgb16, .rgba16]

    /// A seeded image mixing smooth gradients (which filters shrink) and noise.
    static func sampleImage(width: Int, height: Int, format: PixelFormat, seed: UInt64) -> Image {
        var rng = SeededGenerator(seed: seed)
        var pixels = [UInt8](repeating: 0, count: width * height * format.bytesPerPixel)
        for y in 0..<height {
            for x in 0..<width {
                for byte in 0..<format.bytesPerPixel {
                    let index = (y * width + x) * format.bytesPerPixel + byte
                    let smooth = UInt8(truncatingIfNeeded: x * 3 + y * 5 + byte * 40)
                    pixels[index] = x % 7 == 0 ? UInt8.random(in: 0...255, using: &rng) : smooth
                }
            }
        }
        return Image(width: width, height: height, format: format, pixels: pixels)
    }

    func testEveryFormatSizeAndFilterStrategyRoundTrips() throws {
        let strategies: [PNGFilterStrategy] = [.adaptive, .none, .fixed(1), .fixed(2), .fixed(3), .fixed(4)]
        let sizes = [(1, 1), (7, 3), (33, 17)]
        for format in Self.encodableFormats {
            for (width, height) in sizes {
                let image = Self.sampleImage(width: width, height: height, format: format, seed: UInt64(width * 1000 + height))
                for strategy in strategies {
                    let encoded = PNGEncoder(filterStrategy: strategy).encode(image)
                    let decoded = try PNGDecoder().decode(encoded)
                    XCTAssertEqual(decoded, image, "\(format) \(width)×\(height) \(strategy)")
                }
            }
        }
    }

    func testEveryCompressionLevelRoundTrips() throws {
        let image = Self.sampleImage(width: 64, height: 40, format: .rgba8, seed: 9)
        var sizes: [Int] = []
        for level in 0...9 {
            let encoded = PNGEncoder(compressionLevel: level).encode(image)
            XCTAssertEqual(try PNGDecoder().decode(encoded), image, "level \(level)")
            sizes.append(encoded.count)
        }
        XCTAssertLessThan(sizes[9], sizes[0], "level 9 compresses, level 0 only stores")
    }

    func testCorpusImagesRoundTripInTheirNaturalFormat() throws {
        for name in ["pngsuite/basn0g16.png", "pngsuite/basn4a08.png", "pngsuite/tbrn2c08.png", "pngsuite/basi3p04.png",
                     "extras/rgba16_photo.png"] {
            let original = try PNGTestSupport.decode(try Fixtures.bytes("corpus/png/" + name))
            XCTAssertEqual(try PNGDecoder().decode(PNGEncoder().encode(original)), original, name)
        }
    }

    func testICCProfileAndOrientationSurviveARoundTrip() throws {
        var image = Self.sampleImage(width: 5, height: 4, format: .rgb8, seed: 3)
        image.iccProfile = Array("profile bytes".utf8)
        image.orientation = .leftMirrored
        let decoder = PNGDecoder()
        let decoded = try decoder.decode(PNGEncoder().encode(image))
        XCTAssertEqual(decoded, image)
        XCTAssertEqual(decoder.metadata.iccProfileName, "ICC profile")
    }

    func testLargeImagesAreSplitIntoSeveralIDATChunks() throws {
        // Noise does not compress: 700×600 RGBA is 1.6 MiB of IDAT data, so at least two chunks.
        var rng = SeededGenerator(seed: 77)
        let pixels = (0..<(700 * 600 * 4)).map { _ in UInt8.random(in: 0...255, using: &rng) }
        let image = Image(width: 700, height: 600, format: .rgba8, pixels: pixels)
        let encoded = PNGEncoder(compressionLevel: 1).encode(image)
        let idatCount = PNGFileEditor(encoded).chunks.filter { $0.type == "IDAT" }.count
        XCTAssertGreaterThanOrEqual(idatCount, 2)
        XCTAssertEqual(try PNGDecoder().decode(encoded), image)
    }

    func testCMYKIsWrittenAsRGB() throws {
        let cmyk = Image(width: 1, height: 1, format: .cmyk8, pixels: [255, 0, 128, 255])
        let decoded = try PNGDecoder().decode(PNGEncoder().encode(cmyk))
        XCTAssertEqual(decoded, cmyk.converted(to: .rgb8))
    }
}

/// ``PNGEncoder/encode(_:to:)``: the file arrives in pieces, the same bytes as ``PNGEncoder/encode(_:)``.
final class EncoderStreamingTests: XCTestCase {
    /// A sink error of this kind, thrown after some pieces.
    private struct DiskFull: Error, Equatable { let afterBytes: Int }

    func testPiecesMakeTheSameFileForEveryModeAndTheFileDecodes() throws {
        // 900×700 RGB is 1.9 MB of filtered rows: two 1 MiB bands and several IDATs at level 1.
        let big = EncoderRoundTripTests.sampleImage(width: 900, height: 700, format: .rgb8, seed: 9)
        let small = EncoderRoundTripTests.sampleImage(width: 33, height: 17, format: .rgba16, seed: 10)
        for image in [big, small] {
            for encoder in [PNGEncoder.fast, PNGEncoder(), PNGEncoder(compressionLevel: 6, interlaced: true)] {
                var pieces: [[UInt8]] = []
                encoder.encode(image) { (bytes) throws(Never) in pieces.append(Array(bytes)) }
                let file = Array(pieces.joined())
                XCTAssertEqual(file, encoder.encode(image))
                XCTAssertEqual(try PNGDecoder().decode(file), image)
                // Signature, then IHDR's header; IDAT data comes in pieces of at most 1 MiB.
                XCTAssertEqual(pieces.first, [137, 80, 78, 71, 13, 10, 26, 10])
                XCTAssertLessThanOrEqual(pieces.map(\.count).max() ?? 0, 1 << 20)
            }
        }
    }

    func testASinkErrorEndsTheEncodingAndIsRethrownTyped() {
        let image = EncoderRoundTripTests.sampleImage(width: 900, height: 700, format: .rgb8, seed: 9)
        var written = 0, callsAfterFailure = 0
        do {
            try PNGEncoder.fast.encode(image) { (bytes) throws(DiskFull) in
                if written > 100 { callsAfterFailure += 1 }
                written += bytes.count
                if written > 100 { throw DiskFull(afterBytes: written) }
            }
            XCTFail("no error")
        } catch {
            XCTAssertEqual(error, DiskFull(afterBytes: written))
            XCTAssertEqual(callsAfterFailure, 0, "the sink is not called again after it threw")
        }
    }
}
