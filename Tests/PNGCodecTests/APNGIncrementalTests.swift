import ImageCore
@testable import PNGCodec
import TestSupport
import XCTest

/// Frames arrive as soon as their data is in, work stays linear in the input, and nothing is
/// decoded for callers that never ask for frames.
final class APNGIncrementalTests: XCTestCase {
    /// (type, file offset just past the chunk's CRC) of every chunk.
    private func chunkEnds(_ bytes: [UInt8]) -> [(type: String, end: Int)] {
        var chunks: [(String, Int)] = []
        var at = 8
        while at + 8 <= bytes.count {
            let length = bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self)
            at += 12 + length
            chunks.append((type, at))
        }
        return chunks
    }

    /// Where each frame's data is complete: after the last IDAT (frame 0 when the default image
    /// is in the animation), or after the last fdAT before the next fcTL or IEND.
    private func frameDataEnds(_ bytes: [UInt8], defaultImageIsFrame: Bool) -> [Int] {
        var ends: [Int] = []
        var lastData: Int?
        var inFrame = false
        for chunk in chunkEnds(bytes) {
            switch chunk.type {
            case "IDAT": if defaultImageIsFrame { lastData = chunk.end; inFrame = true }
            case "fdAT": lastData = chunk.end; inFrame = true
            case "fcTL", "IEND":
                if inFrame, let lastData { ends.append(lastData) }
                inFrame = false
                lastData = nil
            default: break
            }
        }
        return ends
    }

    func testEachFrameComesWithTheLastByteOfItsData() throws {
        for (name, reference) in APNGReferences.all.animations.sorted(by: { $0.key < $1.key }) {
            let bytes = apngFixture(name)
            let decoder = PNGDecoder()
            var arrivals: [Int] = []
            for index in bytes.indices {
                try decoder.feed(bytes[index...index])
                while try decoder.nextFrame() != nil { arrivals.append(index + 1) }
            }
            XCTAssertEqual(arrivals, frameDataEnds(bytes, defaultImageIsFrame: reference.default_image_in_animation), name)
        }
    }

    func testBytesExaminedAreTheSameForEveryChunkingAndLinear() {
        for name in APNGReferences.all.animations.keys.sorted() {
            let bytes = apngFixture(name)
            let whole = decodeAPNG([bytes[...]]).examined
            XCTAssertEqual(decodeAPNG(Chunking.fixed(bytes, size: 1)).examined, whole, name)
            XCTAssertEqual(decodeAPNG(Chunking.random(bytes, seed: 5, maxSize: 90), pullWhileFeeding: false).examined, whole, name)
            // Each byte read once by the parser, frame data once more by a frame's inflater.
            XCTAssertLessThanOrEqual(whole, 2 * bytes.count, name)
            XCTAssertGreaterThanOrEqual(whole, bytes.count, name)
        }
    }

    func testNothingIsDecodedForCallersThatNeverAskForFrames() throws {
        let bytes = apngFixture("many_frames.png")
        let decoder = PNGDecoder()
        for piece in Chunking.fixed(bytes, size: 333) { try decoder.feed(piece) }
        let image = try decoder.finish()
        XCTAssertEqual(Digest.sha256(image.converted(to: .rgba8).pixels),
                       APNGReferences.all.animations["many_frames.png"]?.default_image_sha256)
        XCTAssertEqual(decoder.apng?.assembler.framesDelivered, 0)
        XCTAssertEqual(decoder.apng?.assembler.inflatedBytesExamined, 0)
        // The frames' compressed data waits, and is decoded when asked for.
        XCTAssertGreaterThan(decoder.apng?.events.heldBytes ?? 0, 0)
        var frames = 0
        while try decoder.nextFrame() != nil { frames += 1 }
        XCTAssertEqual(frames, 150)
        XCTAssertEqual(decoder.apng?.events.heldBytes, 0)
    }

    func testPullingAfterEveryPieceHoldsOnlyTheFrameBeingReceived() throws {
        let bytes = apngFixture("many_frames.png")
        let decoder = PNGDecoder()
        var largestHeld = 0
        for piece in Chunking.fixed(bytes, size: 64) {
            try decoder.feed(piece)
            while try decoder.nextFrame() != nil {}
            largestHeld = max(largestHeld, decoder.apng?.events.heldBytes ?? 0)
        }
        XCTAssertEqual(largestHeld, 0, "frame data is decoded as it comes when frames are pulled")
    }

    func testTheDefaultImageIsFrameZeroOnlyWhenItsFcTLComesFirst() throws {
        let hidden = decodeAPNG([apngFixture("default_image_hidden.png")[...]])
        let shown = decodeAPNG([apngFixture("palette_trns.png")[...]])
        XCTAssertEqual(hidden.frames.count, 4)
        XCTAssertNotEqual(hidden.frames.first.map { Digest.sha256($0.image.pixels) },
                          hidden.image.map { Digest.sha256($0.converted(to: .rgba8).pixels) })
        XCTAssertEqual(shown.frames.first.map { Digest.sha256($0.image.pixels) },
                       shown.image.map { Digest.sha256($0.converted(to: .rgba8).pixels) })
    }

    func testAFirstFrameDisposedToPreviousIsReportedAsBackground() {
        let outcome = decodeAPNG([apngFixture("first_frame_dispose_previous.png")[...]])
        XCTAssertEqual(outcome.frames.map(\.disposal), [.background, .none])
    }

    func testCutsAnywhereGiveTheCompleteFramesThenTruncated() {
        let bytes = apngFixture("split_fdat.png")
        let reference = APNGReferences.all.animations["split_fdat.png"]?.frames.map(\.sha256) ?? []
        let ends = frameDataEnds(bytes, defaultImageIsFrame: true)
        for length in stride(from: 0, to: bytes.count, by: 37) {
            let outcome = decodeAPNG([bytes[0..<length]])
            let complete = ends.filter { $0 <= length }.count
            XCTAssertEqual(outcome.frames.map { Digest.sha256($0.image.pixels) }, Array(reference.prefix(complete)), "cut at \(length)")
            XCTAssertEqual(outcome.imageError?.kind, .truncated, "cut at \(length)")
            if length >= bytes.count - 4 {
                // IEND's header was read: the animation is whole, only the still image misses its CRC.
                XCTAssertNil(outcome.frameError, "cut at \(length)")
            } else if length > 100 {
                XCTAssertEqual(outcome.frameError?.kind, .truncated, "cut at \(length)")
                XCTAssertEqual(outcome.frameError?.offset, length, "cut at \(length)")
            }
        }
    }
}

/// Inputs the fuzzer found, kept as regression tests.
final class APNGFuzzRegressionTests: XCTestCase {
    /// An acTL with a bad CRC (dropped), then an invalid fcTL before IDAT: a still image whatever
    /// the chunking (the fuzzer found the fcTL's error reaching `nextFrame()` only when frames
    /// were pulled before IDAT arrived).
    func testAnFcTLErrorBeforeAnyAcTLIsNotAnAnimationError() {
        let bytes = apngFixture("fuzz/bad_fctl_before_damaged_actl.png")
        XCTAssertEqual(bytes.count, 2997)
        for (label, pieces) in apngChunkings(bytes) {
            let outcome = decodeAPNG(pieces)
            XCTAssertNil(outcome.animation, label)
            XCTAssertTrue(outcome.frames.isEmpty, label)
            XCTAssertNil(outcome.frameError, label)
            XCTAssertEqual(outcome.imageError?.kind, .invalidData, label)
            XCTAssertEqual(outcome.imageError?.offset, 2557, label)
        }
    }
}
