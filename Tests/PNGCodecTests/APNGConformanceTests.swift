import ImageCore
import PNGCodec
import TestSupport
import XCTest

/// Every frame of every APNG fixture equals the reference (libpng's pixels for each frame,
/// composited by the APNG spec), whatever the chunking; broken files end in the right error
/// after the right frames; the default image is unaffected by the animation.
final class APNGConformanceTests: XCTestCase {
    private let references = APNGReferences.all

    func testTheReferencesAreThere() {
        XCTAssertEqual(references.animations.count, 25)
        XCTAssertEqual(references.broken.count, 14)
        XCTAssertEqual(references.still.count, 3)
    }

    func testEveryFrameEqualsTheReference() {
        for (name, reference) in references.animations.sorted(by: { $0.key < $1.key }) {
            let outcome = decodeAPNG([apngFixture(name)[...]], pullWhileFeeding: false)
            XCTAssertNil(outcome.imageError, name)
            XCTAssertNil(outcome.frameError, name)
            XCTAssertEqual(outcome.frames.map { Digest.sha256($0.image.pixels) }, reference.frames.map(\.sha256), name)
            XCTAssertEqual(outcome.frames.map { Digest.sha256($0.regionImage.pixels) }, reference.frames.map(\.region_sha256), name)
            XCTAssertEqual(outcome.frames.map(\.index), Array(0..<reference.frames.count), name)
            XCTAssertEqual(outcome.frames.map { [$0.region.x, $0.region.y, $0.region.width, $0.region.height] },
                           reference.frames.map(\.region), name)
            XCTAssertEqual(outcome.frames.map { "\($0.disposal)" }, reference.frames.map(\.dispose), name)
            XCTAssertEqual(outcome.frames.map { "\($0.blend)" }, reference.frames.map(\.blend), name)
            XCTAssertEqual(outcome.frames.map(\.duration),
                           reference.frames.map { Double($0.delay[0]) / Double($0.delay[1] == 0 ? 100 : $0.delay[1]) }, name)
            let wide = outcome.frames.first?.image.format == .rgba16
            XCTAssertEqual(Set(outcome.frames.map { $0.image.format }), [wide ? .rgba16 : .rgba8], name)
            XCTAssertEqual(outcome.animation, AnimationInfo(loopCount: reference.plays, declaredFrameCount: reference.declared_frames,
                                                            canvasWidth: reference.width, canvasHeight: reference.height), name)
            XCTAssertEqual(outcome.image.map { Digest.sha256($0.converted(to: wide ? .rgba16 : .rgba8).pixels) },
                           reference.default_image_sha256, "\(name): the default image")
        }
    }

    func testEveryChunkingGivesTheSameFrames() {
        for (name, reference) in references.animations.sorted(by: { $0.key < $1.key }) {
            let bytes = apngFixture(name)
            for (label, pieces) in apngChunkings(bytes) {
                let outcome = decodeAPNG(pieces)
                XCTAssertNil(outcome.frameError, "\(name) in pieces of \(label)")
                XCTAssertEqual(outcome.frames.map { Digest.sha256($0.image.pixels) }, reference.frames.map(\.sha256),
                               "\(name) in pieces of \(label)")
            }
        }
    }

    func testSixteenBitFilesGiveEightBitFramesWhenAskedFor() {
        let options = DecodingOptions(preferredFormat: .rgba8)
        var checked = 0
        for (name, reference) in references.animations.sorted(by: { $0.key < $1.key }) {
            guard let expected = reference.frames_rgba8 else { continue }
            let outcome = decodeAPNG(Chunking.fixed(apngFixture(name), size: 97), options: options)
            XCTAssertEqual(outcome.frames.map { Digest.sha256($0.image.pixels) }, expected, name)
            XCTAssertEqual(Set(outcome.frames.map { $0.image.format }), [.rgba8], name)
            checked += 1
        }
        XCTAssertEqual(checked, 5)
    }

    func testBrokenAnimationsEndInTheRightErrorAfterTheFramesBefore() {
        for (name, reference) in references.broken.sorted(by: { $0.key < $1.key }) {
            for (label, pieces) in apngChunkings(apngFixture(name)) {
                let outcome = decodeAPNG(pieces)
                let context = "\(name) in pieces of \(label)"
                XCTAssertEqual(outcome.frames.map { Digest.sha256($0.image.pixels) }, reference.frames_before_error, context)
                XCTAssertEqual(kindName(outcome.frameError?.kind), reference.error_kind, context)
                XCTAssertEqual(outcome.frameError?.offset, reference.error_offset, context)
                if let expected = reference.default_image_sha256 {
                    // The default image decodes as from a still PNG: the animation's error is not its error.
                    XCTAssertNil(outcome.imageError, context)
                    XCTAssertEqual(outcome.image.map { Digest.sha256($0.converted(to: .rgba8).pixels) }, expected, context)
                } else {
                    XCTAssertEqual(outcome.imageError?.kind, .truncated, context)
                }
            }
        }
    }

    func testAnInvalidAcTLLeavesAStillImage() throws {
        // Warnings naming acTL: the bad chunk, and for acTL after IDAT also the fcTL that had no acTL before IDAT.
        let warningsNamingAcTL = ["actl_zero_frames.png": 1, "actl_after_idat.png": 2, "actl_twice.png": 1]
        for (name, reference) in references.still.sorted(by: { $0.key < $1.key }) {
            let decoder = PNGDecoder()
            let image = try decoder.decode(apngFixture(name))
            XCTAssertEqual(Digest.sha256(image.converted(to: .rgba8).pixels), reference.default_image_sha256, name)
            XCTAssertNil(decoder.animation, name)
            XCTAssertNil(try decoder.nextFrame(), name)
            XCTAssertEqual(decoder.warnings.filter { $0.message.contains("acTL") }.count, warningsNamingAcTL[name], name)
        }
    }

    func testAStillPNGHasNoAnimationAndNoFrames() throws {
        let decoder = PNGDecoder()
        _ = try decoder.decode(try Fixtures.bytes("png-damaged/text_bad_crc.png"))
        XCTAssertNil(decoder.animation)
        XCTAssertNil(try decoder.nextFrame())
    }

    func testErrorsAreStickyAndFramesBeforeStayValid() throws {
        let decoder = PNGDecoder()
        try decoder.feed(apngFixture("bad_sequence_fdat.png"))
        let first = try decoder.nextFrame(), second = try decoder.nextFrame()
        XCTAssertEqual([first?.index, second?.index], [0, 1])
        XCTAssertThrowsError(try decoder.nextFrame()) { XCTAssertEqual(($0 as? ImageDecodingError)?.kind, .invalidData) }
        XCTAssertThrowsError(try decoder.nextFrame()) { XCTAssertEqual(($0 as? ImageDecodingError)?.kind, .invalidData) }
        XCTAssertEqual(first.map { Digest.sha256($0.image.pixels) }, references.broken["bad_sequence_fdat.png"]?.frames_before_error.first)
        XCTAssertNoThrow(try decoder.finish())
    }
}
