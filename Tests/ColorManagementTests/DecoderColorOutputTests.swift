@testable import ColorManagement
import ImageCore
import JPEGCodec
import PNGCodec
import TestSupport
import WebPCodec
import XCTest

/// `DecodingOptions(colorSpace: .sRGB)` through the PNG, JPEG and WebP decoders on the fixtures
/// of TestImages/color/manifest.json: each against its LittleCMS reference (or unchanged where the
/// file says sRGB or something unsupported), the same for every chunking, previews converted too.
final class DecoderColorOutputTests: XCTestCase {
    private struct Manifest: Decodable {
        struct File: Decodable { var file: String; var reference: String?; var note: String; var tolerance: Int? }
        struct Profile: Decodable { var tolerance: Int }
        var files: [File]
        var profiles: [String: Profile]
    }

    private static let srgb = DecodingOptions(colorSpace: .sRGB)

    private func manifest() throws -> Manifest {
        try JSONDecoder().decode(Manifest.self, from: Data(try Fixtures.bytes("color/manifest.json")))
    }

    private func decoder(for name: String, options: DecodingOptions) -> any IncrementalImageDecoder {
        if name.hasSuffix(".png") { return PNGDecoder(options: options) }
        if name.hasSuffix(".webp") { return WebPDecoder(options: options) }
        return JPEGDecoder(options: options)
    }

    /// The reference file names of TestImages/color/make_fixtures.py for each intent.
    static let intents: [(RenderingIntent, String)] = [(.perceptual, "perceptual"), (.relativeColorimetric, "relative"),
                                                       (.saturation, "saturation")]

    func testEveryFixtureMatchesItsReferenceWithEveryIntent() throws {
        let manifest = try manifest()
        var checked = 0
        for entry in manifest.files {
            guard let reference = entry.reference else { continue }
            let bytes = try Fixtures.bytes("color/" + entry.file)
            let original = try decoder(for: entry.file, options: DecodingOptions()).decode(bytes)
            var converted = original
            for (intent, label) in Self.intents {
                let options = DecodingOptions(colorSpace: .sRGB, renderingIntent: intent)
                converted = try decoder(for: entry.file, options: options).decode(bytes)
                XCTAssertEqual(converted.format, original.format, entry.file)
                if reference == "identity" {
                    XCTAssertEqual(converted, original, "\(entry.file): \(entry.note)")
                } else {
                    let base = String(reference.dropLast("-perceptual".count))
                    let tolerance = entry.tolerance ?? manifest.profiles[base]?.tolerance ?? 2
                    let difference = ColorCharts.maximumDifference(converted, try ColorCharts.reference("\(base)-\(label)"))
                    XCTAssertLessThanOrEqual(difference, tolerance, "\(entry.file) \(label): \(entry.note)")
                    XCTAssertNotEqual(converted.pixels, original.pixels, entry.file)
                }
            }
            if converted.format.hasAlpha {
                // Alpha is kept (77 everywhere in the RGBA chart).
                let alpha = stride(from: converted.format.channelCount - 1, to: converted.pixels.count, by: converted.format.channelCount)
                XCTAssertTrue(alpha.allSatisfy { converted.pixels[$0] == 77 }, entry.file)
            }
            checked += 1
        }
        XCTAssertEqual(checked, 15)
    }

    func testSixteenBitStaysSixteenBit() throws {
        let bytes = try Fixtures.bytes("color/chart-prophoto-16.png")
        let image = try PNGDecoder(options: Self.srgb).decode(bytes)
        XCTAssertEqual(image.format, .rgb16)
        // The 16-bit output is not just 8-bit widened: some sample has low bits beyond ×257.
        let samples = stride(from: 0, to: image.pixels.count, by: 2).map { Int(image.pixels[$0]) << 8 | Int(image.pixels[$0 + 1]) }
        XCTAssertTrue(samples.contains { $0 % 257 != 0 })
    }

    func testJPEGConversionEqualsConvertingTheOriginalDecode() throws {
        let p3 = try Fixtures.bytes("color/chart-displayp3.jpg")
        let original = try JPEGDecoder().decode(p3)
        let profile = try ICCProfile(try XCTUnwrap(original.iccProfile))
        let converter = try XCTUnwrap(try ColorConverter(source: .iccProfile(profile), format: .rgb8))
        XCTAssertEqual(try JPEGDecoder(options: Self.srgb).decode(p3), converter.convert(original))

        let cmyk = try Fixtures.bytes("color/chart-press-cmyk.jpg")
        let raw = try JPEGDecoder(options: DecodingOptions(preferredFormat: .cmyk8)).decode(cmyk)
        XCTAssertEqual(raw.format, .cmyk8)
        let press = try ICCProfile(try XCTUnwrap(raw.iccProfile))
        let cmykConverter = try XCTUnwrap(try ColorConverter(source: .iccProfile(press), format: .cmyk8, cmykIsInverted: true))
        let managed = try JPEGDecoder(options: Self.srgb).decode(cmyk)
        XCTAssertEqual(managed.format, .rgb8)
        XCTAssertEqual(managed, cmykConverter.convert(raw))
        // The raw samples are still available with .sRGB when asked for.
        XCTAssertEqual(try JPEGDecoder(options: DecodingOptions(preferredFormat: .cmyk8, colorSpace: .sRGB)).decode(cmyk), raw)
        // Inverting the samples first is the same as telling the converter they are inverted.
        let uninverted = Image(width: raw.width, height: raw.height, format: .cmyk8, pixels: raw.pixels.map { 255 - $0 })
        let direct = try XCTUnwrap(try ColorConverter(source: .iccProfile(press), format: .cmyk8))
        XCTAssertTrue(direct.convert(uninverted).pixels == managed.pixels)
    }

    func testCMYKWithoutProfileIsLibjpegsConversion() throws {
        let bytes = try Fixtures.bytes("color/chart-cmyk-noprofile.jpg")
        XCTAssertEqual(try JPEGDecoder(options: Self.srgb).decode(bytes), try JPEGDecoder().decode(bytes))
    }

    func testSameOutputForEveryChunking() throws {
        // chart-swop-cmyk.jpg: its 557 KB profile spans nine APP2 segments.
        for name in ["chart-displayp3.png", "chart-press-cmyk.jpg", "chart-swop-cmyk.jpg", "chart-prophoto.webp", "chart-gama-chrm.png"] {
            let bytes = try Fixtures.bytes("color/" + name)
            let whole = try decoder(for: name, options: Self.srgb).decode(bytes)
            let splits: [(String, [ArraySlice<UInt8>])] = [
                ("1", Chunking.fixed(bytes, size: 1)), ("7", Chunking.fixed(bytes, size: 7)),
                ("4096", Chunking.fixed(bytes, size: 4096)),
                ("random", Chunking.random(bytes, seed: 0xC01 ^ UInt64(bytes.count), maxSize: 300)),
            ]
            for (label, pieces) in splits {
                let decoder = decoder(for: name, options: Self.srgb)
                for piece in pieces { try decoder.feed(Array(piece)) }
                XCTAssertEqual(try decoder.finish(), whole, "\(name) in \(label)-byte pieces")
            }
        }
    }

    func testPreviewsAreConvertedToo() throws {
        let bytes = try Fixtures.bytes("color/chart-displayp3.png")
        let managed = PNGDecoder(options: Self.srgb), plain = PNGDecoder()
        let half = Array(bytes[..<(bytes.count / 2)])
        try managed.feed(half)
        try plain.feed(half)
        let preview = try XCTUnwrap(managed.currentImage()), original = try XCTUnwrap(plain.currentImage())
        let profile = try ICCProfile(try XCTUnwrap(plain.metadata.iccProfile))
        XCTAssertEqual(preview, try XCTUnwrap(try ColorConverter(source: .iccProfile(profile), format: .rgb8)).convert(original))
    }

    func testBrokenProfileIsAWarningAndThePixelsStay() throws {
        // The ProPhoto WebP with its profile's 'acsp' signature damaged (RIFF chunks carry no CRC).
        var bytes = try Fixtures.bytes("color/chart-prophoto.webp")
        let tag = Array("ICCP".utf8)
        let chunk = try XCTUnwrap((0..<(bytes.count - 4)).first { Array(bytes[$0..<($0 + 4)]) == tag })
        bytes[chunk + 8 + 36] = UInt8(ascii: "x")
        let decoder = WebPDecoder(options: Self.srgb)
        let image = try decoder.decode(bytes)
        XCTAssertEqual(image, try WebPDecoder().decode(bytes))
        XCTAssertEqual(image.pixels, ColorCharts.rgb.pixels)
        XCTAssertEqual(decoder.warnings.map(\.kind), [.invalidData])
    }
}
