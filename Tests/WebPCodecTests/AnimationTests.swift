import Foundation
import ImageCore
import TestSupport
import WebPCodec
import XCTest

/// Animated files (img2webp and gif2webp: lossless, lossy, mixed, alpha, blending on and off,
/// disposal to background) composite frame by frame to what libwebp's WebPAnimDecoder gives
/// (references from Pillow, `animation_references.json`).
final class AnimationTests: XCTestCase {
    struct Reference: Decodable {
        struct Frame: Decodable {
            var sha256: String
            var duration_ms: Int?
        }
        var width: Int
        var height: Int
        var loop: Int?
        var frames: [Frame]
    }

    static let references: [String: Reference] = {
        guard let data = try? Data(contentsOf: Fixtures.url("webp/animation_references.json")),
              let decoded = try? JSONDecoder().decode([String: Reference].self, from: data) else { return [:] }
        return decoded
    }()

    /// Feeds `pieces`, pulling frames as they become available; returns every frame.
    static func frames(_ pieces: [ArraySlice<UInt8>]) throws -> (WebPDecoder, [AnimationFrame]) {
        let decoder = WebPDecoder()
        var frames: [AnimationFrame] = []
        for piece in pieces {
            try decoder.feed(piece)
            while let frame = try decoder.nextFrame() { frames.append(frame) }
        }
        _ = try decoder.finish()
        while let frame = try decoder.nextFrame() { frames.append(frame) }
        return (decoder, frames)
    }

    func testReferencesArePresent() {
        XCTAssertGreaterThanOrEqual(Self.references.count, 8)
    }

    func testEveryFrameMatchesLibwebpsCompositing() throws {
        for (name, reference) in Self.references.sorted(by: { $0.key < $1.key }) {
            let bytes = try WebPFixtures.bytes(name)
            let (decoder, frames) = try Self.frames([bytes[...]])
            XCTAssertEqual(decoder.animation?.canvasWidth, reference.width, name)
            XCTAssertEqual(decoder.animation?.canvasHeight, reference.height, name)
            XCTAssertEqual(decoder.animation?.loopCount, reference.loop, name)
            XCTAssertEqual(frames.count, reference.frames.count, name)
            for (frame, expected) in zip(frames, reference.frames) {
                XCTAssertEqual(Digest.sha256(frame.image.pixels), expected.sha256, "\(name) frame \(frame.index)")
                if let ms = expected.duration_ms { XCTAssertEqual(frame.duration, Double(ms) / 1000, "\(name) frame \(frame.index)") }
            }
            XCTAssertEqual(frames.map(\.index), Array(0..<frames.count))
        }
    }

    func testTheDefaultImageIsTheFirstFrame() throws {
        let bytes = try WebPFixtures.bytes("anim_lossless.webp")
        let decoder = WebPDecoder()
        let image = try decoder.decode(bytes)
        XCTAssertEqual(decoder.header?.pixelFormat, .rgba8)
        XCTAssertEqual(Digest.sha256(image.pixels), Self.references["anim_lossless.webp"]?.frames.first?.sha256)
    }

    func testTheFirstFramesRowsShowWhileItArrives() throws {
        for name in ["anim_lossless.webp", "anim_lossy.webp"] {
            let bytes = try WebPFixtures.bytes(name)
            let first = try XCTUnwrap(try Self.frames([bytes[...]]).1.first).image
            let decoder = WebPDecoder()
            var previews = 0
            var lastGeneration = -1
            for piece in Chunking.fixed(bytes, size: 16) {
                try decoder.feed(piece)
                if decoder.status.progress?.completedRows == first.height { break }  // the first frame is whole
                let generation = decoder.status.previewGeneration
                guard generation != lastGeneration, let preview = decoder.currentImage() else { continue }
                lastGeneration = generation
                // The first frame covers the canvas (img2webp): decoded rows are final, the rest blank.
                let rowBytes = first.bytesPerRow
                let rows = (0..<first.height).prefix { preview.pixels[($0 * rowBytes)..<(($0 + 1) * rowBytes)] == first.pixels[($0 * rowBytes)..<(($0 + 1) * rowBytes)] }.count
                if rows > 0, rows < first.height {
                    previews += 1
                    XCTAssertTrue(preview.pixels[(rows * rowBytes)...].allSatisfy { $0 == 0 }, "\(name): rows not decoded are transparent")
                }
            }
            XCTAssertGreaterThanOrEqual(previews, 1, "\(name): partial first frames were shown")
        }
    }

    func testFramesArriveAsTheirChunksCompleteWhateverTheChunking() throws {
        for name in ["anim_gif_mixed.webp", "anim_mixed_alpha.webp"] {
            let bytes = try WebPFixtures.bytes(name)
            let whole = try Self.frames([bytes[...]]).1
            for size in [1, 7, 4096] {
                let pieces = try Self.frames(Chunking.fixed(bytes, size: size)).1
                XCTAssertEqual(pieces, whole, "\(name) in \(size)-byte pieces")
            }
        }
    }

    func testFrameRegionsAndOperationsAreReported() throws {
        let (_, frames) = try Self.frames([try WebPFixtures.bytes("anim_alpha_lossless.webp")[...]])
        XCTAssertEqual(frames.first?.disposal, .background)
        XCTAssertEqual(frames.first?.region, FrameRegion(x: 0, y: 0, width: 30, height: 19))
        XCTAssertEqual(frames.first?.regionImage.width, 30)
        XCTAssertTrue(frames.allSatisfy { $0.image.width == 33 && $0.image.height == 25 })
    }

    func testAFrameOutsideTheCanvasIsInvalidData() throws {
        var bytes = try WebPFixtures.bytes("anim_lossless.webp")
        // The second ANMF's width - 1 field: make the frame wider than the canvas.
        let anmf = try XCTUnwrap(Self.offsets(of: "ANMF", in: bytes).dropFirst().first)
        bytes[anmf + 8 + 6] = 0xFF
        let decoder = WebPDecoder()
        try decoder.feed(bytes)
        XCTAssertNotNil(try decoder.nextFrame(), "the first frame is fine")
        XCTAssertThrowsError(try decoder.nextFrame()) { error in
            XCTAssertEqual((error as? ImageDecodingError)?.kind, .invalidData)
        }
        XCTAssertThrowsError(try decoder.nextFrame(), "sticky")
    }

    func testTruncatedAnimationKeepsTheFramesReceived() throws {
        let bytes = try WebPFixtures.bytes("anim_lossless.webp")
        let cut = try XCTUnwrap(Self.offsets(of: "ANMF", in: bytes).last) + 20
        let decoder = WebPDecoder()
        try decoder.feed(Array(bytes[..<cut]))
        var count = 0
        while try decoder.nextFrame() != nil { count += 1 }
        XCTAssertEqual(count, 4, "4 of 5 frames were whole")
        XCTAssertEqual(WebPFixtures.errorKind { _ = try decoder.finish() }, .truncated)
        XCTAssertNotNil(decoder.currentImage())
    }

    static func offsets(of tag: String, in bytes: [UInt8]) -> [Int] {
        let pattern = Array(tag.utf8)
        return (0..<(bytes.count - 4)).filter { Array(bytes[$0..<($0 + 4)]) == pattern }
    }
}
