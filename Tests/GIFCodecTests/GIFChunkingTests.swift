import GIFCodec
import ImageCore
import TestSupport
import XCTest

/// The same frames whatever the chunking; cut files fail as `truncated` and keep what they had;
/// work stays linear in the input.
final class GIFChunkingTests: XCTestCase {
    private func frameHashes(_ outcome: GIFOutcome) -> [String] { outcome.frames.map { Digest.sha256($0.image.pixels) } }

    func testEveryChunkingGivesTheReferenceFrames() {
        for name in GIFReference.names {
            guard let reference = GIFReference.all[name] else { continue }
            let bytes = gifFixture(name)
            let expected = reference.frames.map(\.sha256)
            let chunkings: [(String, [ArraySlice<UInt8>])] = [
                ("1", Chunking.fixed(bytes, size: 1)), ("7", Chunking.fixed(bytes, size: 7)),
                ("4096", Chunking.fixed(bytes, size: 4096)), ("random 1", Chunking.random(bytes, seed: 1, maxSize: 40)),
                ("random 2", Chunking.random(bytes, seed: 2, maxSize: 300)), ("whole", [bytes[...]]),
            ]
            for (label, pieces) in chunkings {
                let outcome = decodeGIF(pieces)
                XCTAssertNil(outcome.error, "\(name) in pieces of \(label)")
                XCTAssertEqual(frameHashes(outcome), expected, "\(name) in pieces of \(label)")
                XCTAssertEqual(outcome.image.map { Digest.sha256($0.pixels) }, expected.first, "\(name) in pieces of \(label)")
            }
        }
    }

    func testFramesPulledOnlyAtTheEndAreTheSame() {
        for name in ["disposal_all.gif", "gifsicle_dispose_previous.gif", "magick_dispose_mix.gif"] {
            let bytes = gifFixture(name)
            let outcome = decodeGIF(Chunking.fixed(bytes, size: 5), pullWhileFeeding: false)
            XCTAssertEqual(frameHashes(outcome), GIFReference.all[name]?.frames.map(\.sha256), name)
        }
    }

    func testBytesExaminedAreTheSameForEveryChunkingAndAtMostTwicePerByte() {
        for name in GIFReference.names {
            let bytes = gifFixture(name)
            let whole = decodeGIF([bytes[...]]).examined
            XCTAssertEqual(decodeGIF(Chunking.fixed(bytes, size: 1)).examined, whole, name)
            XCTAssertEqual(decodeGIF(Chunking.random(bytes, seed: 9, maxSize: 64)).examined, whole, name)
            // Each byte once by the decoder; the scanner reads only block headers and lengths.
            XCTAssertLessThanOrEqual(whole, 2 * bytes.count, name)
            XCTAssertGreaterThanOrEqual(whole, bytes.count / 2, name)
        }
    }

    func testLaterFramesWaitUntilTheyAreAskedFor() throws {
        let bytes = gifFixture("disposal_all.gif")
        let decoder = GIFDecoder()
        try decoder.feed(bytes)
        let beforePulling = decoder.inputBytesExamined
        // The first frame was decoded by feed(); taking it decodes nothing more ...
        XCTAssertEqual(try decoder.nextFrame()?.index, 0)
        XCTAssertEqual(decoder.inputBytesExamined, beforePulling)
        // ... and asking for the second decodes it (and stops before the third).
        XCTAssertEqual(try decoder.nextFrame()?.index, 1)
        let afterSecond = decoder.inputBytesExamined
        XCTAssertGreaterThan(afterSecond, beforePulling)
        var frames = 2
        while try decoder.nextFrame() != nil { frames += 1 }
        XCTAssertEqual(frames, 7)
        XCTAssertGreaterThan(decoder.inputBytesExamined, afterSecond)
        // Only the first frame (and the structure scan) had been read before frames were pulled.
        XCTAssertLessThan(beforePulling, decoder.inputBytesExamined)
        XCTAssertEqual(decoder.animation?.loopCount, 0)
    }

    func testEveryPrefixIsTruncatedOrACompleteFileMissingItsTrailer() {
        for name in GIFReference.names {
            guard let reference = GIFReference.all[name] else { continue }
            let bytes = gifFixture(name)
            let expected = reference.frames.map(\.sha256)
            let step = bytes.count > 3000 ? 97 : 1
            var completePrefixes = 0
            for length in stride(from: 0, to: bytes.count, by: step) {
                let outcome = decodeGIF([bytes[0..<length]])
                // Frames complete before the cut are the reference's first ones.
                XCTAssertEqual(frameHashes(outcome), Array(expected.prefix(outcome.frames.count)), "\(name) cut at \(length)")
                if let error = outcome.error {
                    XCTAssertEqual(error.kind, .truncated, "\(name) cut at \(length): \(error)")
                    XCTAssertEqual(error.offset, length, "\(name) cut at \(length)")
                } else {
                    completePrefixes += 1
                    XCTAssertEqual(outcome.image.map { Digest.sha256($0.pixels) }, expected.first, "\(name) cut at \(length)")
                }
            }
            // Cuts between blocks after the first image are complete files (browsers show them);
            // there is one after each image and each extension.
            XCTAssertLessThanOrEqual(completePrefixes, 2 * reference.frames.count + 4, name)
            if bytes.last == 0x3B, step == 1 {
                XCTAssertNil(decodeGIF([bytes.dropLast()]).error, "\(name) without its trailer")
            }
        }
    }

    func testACutInsideTheFirstFrameKeepsItsDecodedRows() throws {
        let bytes = gifFixture("pillow_256_colours.gif")
        let full = GIFDecoder()
        let final = try full.decode(bytes)
        let decoder = GIFDecoder()
        try decoder.feed(bytes[0..<(bytes.count / 2)])
        XCTAssertThrowsError(try decoder.finish()) { XCTAssertEqual(($0 as? ImageDecodingError)?.kind, .truncated) }
        let partial = try XCTUnwrap(decoder.currentImage())
        let rows = try XCTUnwrap(decoder.status.progress?.completedRows)
        XCTAssertGreaterThan(rows, 0)
        XCTAssertLessThan(rows, final.height)
        let rowBytes = final.width * 4
        XCTAssertTrue(partial.pixels[0..<rows * rowBytes] == final.pixels[0..<rows * rowBytes])
        let untouchedStart: Int = (rows + 1) * rowBytes
        let untouchedCount: Int = (final.height - rows - 1) * rowBytes
        XCTAssertTrue(partial.pixels[untouchedStart...] == [UInt8](repeating: 0, count: untouchedCount)[...])
        // The error is sticky for finish().
        XCTAssertThrowsError(try decoder.finish()) { XCTAssertEqual(($0 as? ImageDecodingError)?.kind, .truncated) }
    }

    func testFramesCompleteBeforeACutAreStillPulledAfterFinish() throws {
        let bytes = gifFixture("disposal_all.gif")
        let expected = GIFReference.all["disposal_all.gif"]?.frames.map(\.sha256) ?? []
        let decoder = GIFDecoder()
        try decoder.feed(bytes[0..<(bytes.count * 3 / 4)])
        XCTAssertThrowsError(try decoder.finish()) { XCTAssertEqual(($0 as? ImageDecodingError)?.kind, .truncated) }
        var hashes: [String] = []
        var lastError: ImageDecodingError?
        do {
            while let frame = try decoder.nextFrame() { hashes.append(Digest.sha256(frame.image.pixels)) }
        } catch let error as ImageDecodingError { lastError = error }
        XCTAssertGreaterThanOrEqual(hashes.count, 3)
        XCTAssertEqual(hashes, Array(expected.prefix(hashes.count)))
        XCTAssertEqual(lastError?.kind, .truncated)
        XCTAssertEqual(lastError?.offset, bytes.count * 3 / 4)
    }
}
