import Foundation
import ImageCore
import PNGCodec
import IncrementalImage
import JPEGCodec
import TestSupport
import XCTest
@testable import imagefeed

/// `imagefeed decode` end to end, run in-process on temporary files.
final class DecodeCommandTests: ImagefeedTestCase {
    private func fixture(_ name: String) -> String { Fixtures.url("corpus/png/" + name).path }

    func testDecodingToPAMWritesTheHeaderAndTheNativePixels() throws {
        let output = path("out.pam")
        XCTAssertEqual(ImagefeedCommand.run(["decode", fixture("pngsuite/basn6a16.png"), "-o", output]), 0)
        let expected = try PNGDecoder().decode(try Fixtures.bytes("corpus/png/pngsuite/basn6a16.png"))
        let header = "P7\nWIDTH 32\nHEIGHT 32\nDEPTH 4\nMAXVAL 65535\nTUPLTYPE RGB_ALPHA\nENDHDR\n"
        XCTAssertEqual(try read(output), Array(header.utf8) + expected.pixels)
    }

    func testHighPrecisionJPEGsWriteTheirPrecisionAsMaxval() throws {
        let references = try JSONSerialization.jsonObject(with: Data(contentsOf: Fixtures.url("jpeg-hibit/references.json")))
        let files = try XCTUnwrap((references as? [String: Any])?["files"] as? [String: [String: Any]])
        // 12-bit: MAXVAL 4095 in 16-bit samples; lossless 3-bit: MAXVAL 7 in 8-bit samples; 8-bit lossless: 255.
        for (name, header) in [("twelve_420.jpg", "P7\nWIDTH 83\nHEIGHT 61\nDEPTH 3\nMAXVAL 4095\nTUPLTYPE RGB\nENDHDR\n"),
                               ("lossless_3bit_gray_p2.jpg", "P7\nWIDTH 31\nHEIGHT 21\nDEPTH 1\nMAXVAL 7\nTUPLTYPE GRAYSCALE\nENDHDR\n"),
                               ("lossless_8bit_rgb_p4.jpg", "P7\nWIDTH 33\nHEIGHT 25\nDEPTH 3\nMAXVAL 255\nTUPLTYPE RGB\nENDHDR\n")] {
            let output = path("hibit.pam")
            XCTAssertEqual(ImagefeedCommand.run(["decode", Fixtures.url("jpeg-hibit/" + name).path, "-o", output, "--chunk", "500"]), 0)
            let written = try read(output)
            XCTAssertEqual(String(decoding: written.prefix(header.utf8.count), as: UTF8.self), header, name)
            XCTAssertEqual(Digest.sha256(Array(written.dropFirst(header.utf8.count))), files[name]?["sha256"] as? String, name)
        }
    }

    func testIntentReachesTheDecoder() throws {
        // A CMYK JPEG with Adobe's SWOP profile: each intent gives the library's pixels for it,
        // and relative colorimetric keeps the press's lighter black (other pixels than perceptual).
        let input = Fixtures.url("color/chart-swop-cmyk.jpg").path
        let bytes = try Fixtures.bytes("color/chart-swop-cmyk.jpg")
        let header = "P7\nWIDTH 64\nHEIGHT 64\nDEPTH 3\nMAXVAL 255\nTUPLTYPE RGB\nENDHDR\n"
        var written: [[UInt8]] = []
        for (flag, intent) in [("perceptual", RenderingIntent.perceptual), ("relative", .relativeColorimetric),
                               ("saturation", .saturation)] {
            let output = path("\(flag).pam")
            XCTAssertEqual(ImagefeedCommand.run(["decode", input, "-o", output, "--colorspace", "srgb", "--intent", flag]), 0)
            let expected = try JPEGDecoder(options: DecodingOptions(colorSpace: .sRGB, renderingIntent: intent)).decode(bytes)
            XCTAssertEqual(try read(output), Array(header.utf8) + expected.pixels, flag)
            written.append(try read(output))
        }
        XCTAssertNotEqual(written[0], written[1])
        XCTAssertEqual(ImagefeedCommand.run(["decode", input, "-o", path("x.pam"), "--intent", "absolute"]), 2)
    }

    func testAGIFDecodesToThePAMOfItsFirstFrame() throws {
        let output = path("out.pam")
        let gif = Fixtures.url("gif/gifsicle_local_palettes.gif").path
        XCTAssertEqual(ImagefeedCommand.run(["decode", gif, "-o", output, "--chunk", "100"]), 0)
        let header = "P7\nWIDTH 20\nHEIGHT 14\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n"
        let written = try read(output)
        XCTAssertEqual(Array(written.prefix(header.utf8.count)), Array(header.utf8))
        // The first frame's reference hash from TestImages/gif/references.json.
        XCTAssertEqual(Digest.sha256(Array(written.dropFirst(header.utf8.count))), try firstFrameReference("gifsicle_local_palettes.gif"))
    }

    private func firstFrameReference(_ name: String) throws -> String {
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: Fixtures.url("gif/references.json")))
        let entry = try XCTUnwrap((json as? [String: [String: Any]])?[name])
        let frames = try XCTUnwrap(entry["frames"] as? [[String: Any]])
        return try XCTUnwrap(frames.first?["sha256"] as? String)
    }

    func testWebPDecodesToTheSamePAMAsDwebp() throws {
        // TestImages/webp/make_fixtures.py made the file with cwebp; its reference hash is of
        // `dwebp -pam` output, whose bytes after the header are these pixels.
        let output = path("out.pam")
        let input = Fixtures.url("webp/files/alpha_m1_best.webp").path
        XCTAssertEqual(ImagefeedCommand.run(["decode", input, "-o", output, "--chunk", "100"]), 0)
        let header = "P7\nWIDTH 61\nHEIGHT 47\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n"
        let written = try read(output)
        XCTAssertEqual(Array(written.prefix(header.utf8.count)), Array(header.utf8))
        XCTAssertEqual(Digest.sha256(Array(written.dropFirst(header.utf8.count))),
                       "\(try webpReference("alpha_m1_best.webp"))")
    }

    private func webpReference(_ name: String) throws -> String {
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: Fixtures.url("webp/references.json"))) as? [String: [String: Any]]
        return try XCTUnwrap(json?[name]?["sha256"] as? String)
    }

    func testPAMTupleTypesFollowThePixelFormat() {
        let cases: [(PixelFormat, String)] = [(.gray8, "GRAYSCALE"), (.grayAlpha16, "GRAYSCALE_ALPHA"), (.rgb8, "RGB"), (.rgba8, "RGB_ALPHA")]
        for (format, tuple) in cases {
            let text = String(decoding: PAMWriter.encode(Image(blankWidth: 2, height: 1, format: format)), as: UTF8.self)
            XCTAssertTrue(text.contains("TUPLTYPE \(tuple)\n"), "\(format)")
            XCTAssertTrue(text.contains("DEPTH \(format.channelCount)\nMAXVAL \(format.bytesPerSample == 2 ? 65535 : 255)\n"))
        }
    }

    func testRGBA8FormatAndChunkedFeedingWriteAPNGOfTheSamePixels() throws {
        let output = path("out.png")
        XCTAssertEqual(ImagefeedCommand.run(["decode", fixture("pngsuite/basi3p04.png"), "-o", output,
                                             "--chunk", "7", "--format", "rgba8"]), 0)
        let written = try PNGDecoder().decode(try read(output))
        let direct = try PNGDecoder(options: DecodingOptions(preferredFormat: .rgba8))
            .decode(try Fixtures.bytes("corpus/png/pngsuite/basi3p04.png"))
        XCTAssertEqual(written.format, .rgba8)
        XCTAssertEqual(written, direct)
    }

    func testFramesAreWrittenEachTimeThePictureChanges() throws {
        let frames = path("frames")
        XCTAssertEqual(ImagefeedCommand.run(["decode", fixture("extras/rgba16_photo_interlaced.png"), "-o", path("out.png"),
                                             "--chunk", "20000", "--frames", frames]), 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: frames).sorted()
        // 246 973 bytes in 20 000-byte pieces: 13 pieces, and each one changes the picture.
        XCTAssertEqual(names.count, 13)
        XCTAssertEqual(names.first, "frame-0001.png")
        XCTAssertEqual(names.last, "frame-0013.png")
        // Each frame is what currentImage() showed after the same pieces.
        let decoder = PNGDecoder()
        for (index, piece) in Chunking.fixed(try Fixtures.bytes("corpus/png/extras/rgba16_photo_interlaced.png"), size: 20_000).enumerated() {
            try decoder.feed(piece)
            let frame = try PNGDecoder().decode(try read(frames + "/" + names[index]))
            XCTAssertEqual(frame, decoder.currentImage(), names[index])
        }
        XCTAssertEqual(try PNGDecoder().decode(try read(path("out.png"))), try decoder.finish())
    }

    func testADecodingErrorExitsWith1AndWritesNothingUnlessPartial() throws {
        let output = path("out.pam")
        let truncated = fixture("malformed/synth_truncated_50pct.png")
        XCTAssertEqual(ImagefeedCommand.run(["decode", truncated, "-o", output]), 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: output))
        XCTAssertEqual(ImagefeedCommand.run(["decode", truncated, "-o", output, "--partial"]), 1)
        // The picture once `finish()` has failed: it hands over the image data still waiting
        // for its hand-over point, so every row the bytes hold is there.
        let partial = PNGDecoder()
        try partial.feed(try Fixtures.bytes("corpus/png/malformed/synth_truncated_50pct.png"))
        XCTAssertThrowsError(try partial.finish()) { error in
            XCTAssertEqual((error as? ImageDecodingError)?.kind, .truncated)
        }
        let expected = try XCTUnwrap(partial.currentImage())
        XCTAssertEqual(Array(try read(output).suffix(expected.pixels.count)), expected.pixels)
    }

    func testTruncatedJPEGAndUnknownInputsExitWith1() throws {
        let jpeg = path("in.jpg"), other = path("in.bin")
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10]).write(to: URL(fileURLWithPath: jpeg))
        try Data([0x49, 0x49, 0x2A, 0x00]).write(to: URL(fileURLWithPath: other))
        XCTAssertEqual(ImagefeedCommand.run(["decode", jpeg, "-o", path("a.png")]), 1)
        XCTAssertEqual(ImagefeedCommand.run(["decode", other, "-o", path("b.png")]), 1)
        let source = ImageSource()
        XCTAssertThrowsError(try source.feed([0x49, 0x49, 0x2A, 0x00])) { error in
            XCTAssertEqual((error as? ImageDecodingError)?.kind, .unsupported)
        }
    }

    /// Runs `decode` to a PAM file and returns its header and samples.
    private func decodeToPAM(_ corpusPath: String, _ extra: [String]) throws -> (header: String, samples: [UInt8]) {
        let output = path("out.pam")
        XCTAssertEqual(ImagefeedCommand.run(["decode", Fixtures.url("corpus/" + corpusPath).path, "-o", output] + extra), 0)
        let pam = [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
        let marker = Array("ENDHDR\n".utf8)
        let end = try XCTUnwrap((0...(pam.count - marker.count)).first { Array(pam[$0..<($0 + marker.count)]) == marker })
        return (String(decoding: pam[0..<end], as: UTF8.self), Array(pam[(end + marker.count)...]))
    }

    func testJPEGDecodesToThePAMOfTheReferencePixels() throws {
        let manifest = try CorpusManifest.load()
        let entry = try XCTUnwrap(manifest.files.first { $0.path == "jpeg/libjpeg-turbo/testorig.jpg" })
        let (header, samples) = try decodeToPAM(entry.path, ["--chunk", "97"])
        XCTAssertTrue(header.contains("TUPLTYPE RGB\n") && header.contains("WIDTH 227\n") && header.contains("HEIGHT 149\n"), header)
        XCTAssertEqual(Digest.sha256(samples), entry.reference?.sha256)
    }

    func testScaleOptionDecodesInTheDCTDomainLikeTheLibrary() throws {
        let path = "jpeg/libjpeg-turbo/testorig.jpg"
        let expected = try JPEGDecoder(options: DecodingOptions(scale: .quarter)).decode(try Fixtures.bytes("corpus/" + path))
        let (header, samples) = try decodeToPAM(path, ["--scale", "4"])
        XCTAssertTrue(header.contains("WIDTH \(expected.width)\n") && header.contains("HEIGHT \(expected.height)\n"), header)
        XCTAssertEqual(expected.width, 57)   // ceil(227 / 4)
        XCTAssertEqual(samples, expected.pixels)
    }

    func testThreadsOptionGivesTheReferencePixels() throws {
        let entry = try XCTUnwrap(try CorpusManifest.load().files.first { $0.path == "jpeg/generated/testorig_restart_1row.jpg" })
        let (_, samples) = try decodeToPAM(entry.path, ["--threads", "2", "--chunk", "500"])
        XCTAssertEqual(Digest.sha256(samples), entry.reference?.sha256)
    }

    func testCMYKFormatWritesRawCMYKWithItsTupleType() throws {
        let manifest = try CorpusManifest.load()
        let entry = try XCTUnwrap(manifest.files.first { $0.path == "jpeg/generated/synth_cmyk_adobe.jpg" })
        let (header, samples) = try decodeToPAM(entry.path, ["--format", "cmyk8"])
        XCTAssertTrue(header.contains("DEPTH 4\n") && header.contains("TUPLTYPE CMYK\n"), header)
        XCTAssertEqual(Digest.sha256(samples), entry.reference_cmyk?.sha256)
    }

    func testBadArgumentsExitWith2() {
        XCTAssertEqual(ImagefeedCommand.run([]), 2)
        XCTAssertEqual(ImagefeedCommand.run(["decode", "in.png"]), 2)
        XCTAssertEqual(ImagefeedCommand.run(["decode", "in.png", "-o", "out.bmp"]), 2)
        XCTAssertEqual(ImagefeedCommand.run(["decode", "in.png", "-o", "out.png", "--chunk", "0"]), 2)
        XCTAssertEqual(ImagefeedCommand.run(["decode", "in.png", "-o", "out.png", "--format", "rgb16"]), 2)
        XCTAssertEqual(ImagefeedCommand.run(["decode", "in.png", "-o", "out.png", "--scale", "3"]), 2)
        XCTAssertEqual(ImagefeedCommand.run(["decode", "in.png", "-o", "out.png", "--threads", "0"]), 2)
        XCTAssertEqual(ImagefeedCommand.run(["frobnicate"]), 2)
    }

    func testAMissingInputFileExitsWith1() {
        XCTAssertEqual(ImagefeedCommand.run(["decode", path("nope.png"), "-o", path("out.png")]), 1)
    }
}
