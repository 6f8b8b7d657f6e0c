import Foundation
import IncrementalImage
import TestSupport
import XCTest

/// The real codecs through the source: skipped until PNGCodec and JPEGCodec provide decoders.
final class ImageSourceCodecTests: XCTestCase {
    private func requireDecoder(_ format: String) throws {
        try XCTSkipUnless(ImageDecoderRegistry.standard.canDecode(format), "no \(format) decoder in this build yet")
    }

    /// The reference hash of `entry` computed from `image` in the reference's pixel format.
    private func referenceHash(of image: Image, for entry: CorpusManifest.Entry) -> String? {
        switch entry.reference?.pixel_format {
        case "rgba8": return Digest.sha256(image.converted(to: .rgba8).pixels)
        case "rgba16be": return Digest.sha256(image.converted(to: .rgba16).pixels)
        case "rgb8": return Digest.sha256(image.converted(to: .rgb8).pixels)
        case "gray8": return Digest.sha256(image.converted(to: .gray8).pixels)
        default: return nil
        }
    }

    private func checkCorpusFiles(_ paths: [String]) throws {
        let manifest = try CorpusManifest.load()
        for path in paths {
            let entry = try XCTUnwrap(manifest.files.first { $0.path == path }, path)
            let bytes = try CorpusManifest.bytes(of: entry)
            let whole: Image
            do {
                whole = try ImageSource.decode(bytes)
            } catch let error as ImageDecodingError where error.kind == .unsupported {
                // The JPEG codec lands baseline first: a progressive file may still be unsupported.
                print("skipping \(path): \(error)")
                continue
            }
            XCTAssertEqual(referenceHash(of: whole, for: entry), entry.reference?.sha256, path)
            // Sniffing must hand every byte on, whatever the chunking (signature split across feeds).
            let source = ImageSource()
            for piece in Chunking.random(bytes, seed: 11, maxSize: 5) { try source.feed(piece) }
            XCTAssertEqual(try source.finish(), whole, path)
        }
    }

    func testPNGFilesDecodeToTheirReferences() throws {
        try requireDecoder("PNG")
        try checkCorpusFiles(["png/pngsuite/basn2c08.png", "png/pngsuite/basi0g08.png", "png/pngsuite/basi6a16.png"])
    }

    func testJPEGFilesDecodeToTheirReferences() throws {
        try requireDecoder("JPEG")
        try checkCorpusFiles(["jpeg/libjpeg-turbo/testorig.jpg", "jpeg/generated/synth_progressive.jpg", "jpeg/generated/synth_gray.jpg"])
    }

    func testDecodeContentsOfACorpusFile() throws {
        try requireDecoder("JPEG")
        let url = Fixtures.url("corpus/jpeg/libjpeg-turbo/testorig.jpg")
        let image = try ImageSource.decode(contentsOf: url)
        XCTAssertEqual(image, try ImageSource.decode(Data(contentsOf: url)))
        XCTAssertEqual(image.width, 227)
        XCTAssertEqual(image.height, 149)
    }
}

/// WebP through the source: recognised whatever its RIFF size, the same pixels as WebPDecoder,
/// and animation frames forwarded.
final class ImageSourceWebPTests: XCTestCase {
    func testStillWebPDecodesThroughTheSourceInAnyChunking() throws {
        let bytes = try Fixtures.bytes("webp/files/alpha_m1_best.webp")
        let direct = try WebPDecoder().decode(bytes)
        let source = ImageSource()
        for piece in Chunking.random(bytes, seed: 5, maxSize: 5) { try source.feed(piece) }
        XCTAssertEqual(source.formatName, "WebP")
        XCTAssertEqual(try source.finish(), direct)
        XCTAssertEqual(source.header?.fileFormat, .webp)
    }

    func testAnimatedWebPFramesComeThroughTheSource() throws {
        let bytes = try Fixtures.bytes("webp/files/anim_lossless.webp")
        let source = ImageSource()
        var frames: [AnimationFrame] = []
        for piece in Chunking.fixed(bytes, size: 512) {
            try source.feed(piece)
            while let frame = try source.nextFrame() { frames.append(frame) }
        }
        _ = try source.finish()
        while let frame = try source.nextFrame() { frames.append(frame) }
        XCTAssertEqual(source.animation?.loopCount, 3)
        XCTAssertEqual(frames.count, 5)
        XCTAssertEqual(frames.map(\.duration), [0.05, 0.06, 0.07, 0.08, 0.09])
    }
}

/// APNG through the source: frames forwarded as they arrive, the default image as before.
final class ImageSourceAPNGTests: XCTestCase {
    func testAPNGFramesComeThroughTheSourceAndEqualPNGDecoders() throws {
        let bytes = try Fixtures.bytes("apng/palette_trns.png")
        let source = ImageSource()
        var frames: [AnimationFrame] = []
        for piece in Chunking.fixed(bytes, size: 61) {
            try source.feed(piece)
            while let frame = try source.nextFrame() { frames.append(frame) }
        }
        let image = try source.finish()
        while let frame = try source.nextFrame() { frames.append(frame) }
        let direct = PNGDecoder()
        try direct.feed(bytes)
        var expected: [AnimationFrame] = []
        while let frame = try direct.nextFrame() { expected.append(frame) }
        XCTAssertEqual(source.formatName, "PNG")
        XCTAssertEqual(frames.count, 5)
        XCTAssertEqual(frames, expected)
        XCTAssertEqual(source.animation, AnimationInfo(loopCount: 1, declaredFrameCount: 5, canvasWidth: 20, canvasHeight: 15))
        XCTAssertEqual(image, try direct.finish())
    }
}
