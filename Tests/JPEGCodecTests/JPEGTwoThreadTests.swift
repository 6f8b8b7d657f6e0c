import Dispatch
import XCTest
import ImageCore
@testable import JPEGCodec
import TestSupport

/// `maximumThreads: 2` (IDCTs on a worker thread) gives the pixels of one thread: final pictures
/// against the djpeg references for every chunking and scale, damaged files, and every preview.
final class JPEGTwoThreadTests: XCTestCase {
    private let twoThreads = DecodingOptions(maximumThreads: 2)

    func testSequentialCorpusFilesMatchReferencesForEveryChunkingOnTwoThreads() throws {
        let entries = try JPEGCorpus.sequentialDecodeEntries()
        XCTAssertEqual(entries.count, 81)
        var failures: [String] = []
        for (index, entry) in entries.enumerated() {
            let bytes = try CorpusManifest.bytes(of: entry)
            let chunkings = JPEGReferenceChecks.chunkings(bytes, seed: UInt64(index) &+ 0x7_4EAD)
            failures += JPEGReferenceChecks.mismatches(entry, bytes: bytes, chunkings: chunkings, options: twoThreads)
        }
        XCTAssertEqual(failures, [])
    }

    func testScaledDecodesMatchDjpegOnTwoThreads() throws {
        let references = try ExtraJPEGReferences.load().scaled
        XCTAssertEqual(references.count, 81 * 3)
        XCTAssertEqual(try JPEGReferenceChecks.scaledMismatches(references, threads: 2, bytes: JPEGCorpus.bytes), [])
    }

    func testProgressiveCorpusFilesMatchReferencesOnTwoThreads() throws {
        let entries = try CorpusManifest.load().files.filter { $0.isJPEG && $0.expect == "decode" && $0.isProgressive && $0.optional == nil }
        XCTAssertGreaterThan(entries.count, 5)
        var failures: [String] = []
        for entry in entries {
            let bytes = try CorpusManifest.bytes(of: entry)
            let chunkings = [("whole", [bytes[...]]), ("4096-byte", Chunking.fixed(bytes, size: 4096))]
            failures += JPEGReferenceChecks.mismatches(entry, bytes: bytes, chunkings: chunkings, options: twoThreads)
        }
        XCTAssertEqual(failures, [])
    }

    func testProgressiveFinalPictureIsDrawnInTwoBandsWithTheOneThreadPixels() throws {
        // 227×149 4:2:0, 10 iMCU rows: the one-shot final picture is split at iMCU row 5, at
        // full size and at every scale (where the bands' first rows differ).
        let entry = try JPEGCorpus.entry("jpeg/generated/testorig_progressive.jpg")
        let bytes = try CorpusManifest.bytes(of: entry)
        for scale in [ScaleFactor.full, .half, .quarter, .eighth] {
            let one = JPEGDecoder(options: DecodingOptions(scale: scale))
            let two = JPEGDecoder(options: DecodingOptions(scale: scale, maximumThreads: 2))
            try one.feed(bytes)
            try two.feed(bytes)
            XCTAssertEqual(try two.finish(), try one.finish(), "\(scale)")
            XCTAssertEqual(two.preview?.onePassBands, 2, "\(scale)")
            XCTAssertEqual(one.preview?.onePassBands, 1, "\(scale)")
        }
        XCTAssertEqual(Digest.sha256(try JPEGDecoder(options: twoThreads).decode(bytes).pixels), entry.reference?.sha256)
    }

    func testDamagedFilesGiveTheOneThreadPictureAndErrorOnTwoThreads() throws {
        for reference in try ExtraJPEGReferences.load().damaged {
            let bytes = reference.apply(to: try JPEGCorpus.bytes(reference.path))
            let label = "\(reference.path), \(reference.description)"
            let decoder = JPEGDecoder(options: twoThreads)
            var thrown: ImageDecodingError?
            do {
                for piece in Chunking.fixed(bytes, size: 97) { try decoder.feed(piece) }
                _ = try decoder.finish()
            } catch {
                thrown = error as? ImageDecodingError
            }
            let expectedKind: ImageDecodingError.Kind = reference.edit.truncate != nil ? .truncated : .invalidData
            XCTAssertEqual(thrown?.kind, expectedKind, label)
            XCTAssertEqual(Digest.sha256(try XCTUnwrap(decoder.currentImage(), label).pixels), reference.sha256, label)
        }
    }

    func testEveryPreviewEqualsTheOneThreadPreviewOfTheSamePrefix() throws {
        for (path, chunk) in [("jpeg/generated/synth_baseline_q95_444.jpg", 700), ("jpeg/generated/testorig_restart_1row.jpg", 333),
                              ("jpeg/generated/synth_baseline_noninterleaved.jpg", 1000), ("jpeg/libjpeg-turbo/testorig.jpg", 1)] {
            let bytes = try JPEGCorpus.bytes(path)
            let one = JPEGDecoder(), two = JPEGDecoder(options: twoThreads)
            var previews = 0
            for piece in Chunking.fixed(bytes, size: chunk) {
                let statusOne = try one.feed(piece), statusTwo = try two.feed(piece)
                XCTAssertEqual(statusOne.progress?.previewGeneration, statusTwo.progress?.previewGeneration, path)
                // Taking a picture at every byte would be quadratic: every 50th piece at 1 byte.
                guard chunk > 1 || previews % 50 == 0 || piece.endIndex == bytes.count else { previews += 1; continue }
                XCTAssertEqual(one.currentImage(), two.currentImage(), "\(path) after \(piece.endIndex) bytes")
                previews += 1
            }
            XCTAssertEqual(try one.finish(), try two.finish(), path)
        }
    }

    func testTheWorkerEmitsRowsAndTheCallerTheRest() throws {
        // 227×149 4:2:0 in 1000-byte pieces: the rows of both threads make the reference picture.
        let entry = try JPEGCorpus.entry("jpeg/libjpeg-turbo/testorig.jpg")
        let bytes = try CorpusManifest.bytes(of: entry)
        let decoder = JPEGDecoder(options: twoThreads)
        for piece in Chunking.fixed(bytes, size: 1000) { try decoder.feed(piece) }
        XCTAssertEqual(Digest.sha256(try decoder.finish().pixels), entry.reference?.sha256)
        let fromWorker = try XCTUnwrap(decoder.pipeline).rowsFromWorker
        XCTAssertGreaterThan(fromWorker, 0)
        XCTAssertLessThan(fromWorker, 149)
    }

    func testJobsTheWorkerHasNotStartedAreRunByTheCaller() throws {
        // The worker's loop held back (its core busy): the caller runs every job itself, two at
        // a time when a later one is queued, and the picture is the reference.
        let gate = DispatchSemaphore(value: 0)
        TransformPipeline.workerGateForTesting = gate
        defer {
            TransformPipeline.workerGateForTesting = nil
            gate.signal()
        }
        for path in ["jpeg/libjpeg-turbo/testorig.jpg", "jpeg/generated/synth_baseline_q95_444.jpg"] {
            let entry = try JPEGCorpus.entry(path)
            let bytes = try CorpusManifest.bytes(of: entry)
            let decoder = JPEGDecoder(options: twoThreads)
            for piece in Chunking.fixed(bytes, size: 1000) { try decoder.feed(piece) }
            XCTAssertEqual(Digest.sha256(try decoder.finish().pixels), entry.reference?.sha256, path)
            let pipeline = try XCTUnwrap(decoder.pipeline, path)
            let header = try XCTUnwrap(decoder.header, path)
            let iMCURows = (header.height + 15) / 16
            XCTAssertEqual(pipeline.jobsRunByCaller, path.contains("444") ? (header.height + 7) / 8 : iMCURows, path)
            XCTAssertEqual(pipeline.rowsFromWorker, 0, path)
        }
    }

    func testSoloRowsAfterAStarvedWaitKeepThePixels() throws {
        // After a long wait for a job the worker had started, the caller transforms the next
        // rows itself; the worker takes the rows after them again.
        let entry = try JPEGCorpus.entry("jpeg/libjpeg-turbo/testorig.jpg")
        let bytes = try CorpusManifest.bytes(of: entry)
        let decoder = JPEGDecoder(options: twoThreads)
        let pieces = Chunking.fixed(bytes, size: 500)
        var soloSet = false
        for piece in pieces {
            try decoder.feed(piece)
            if !soloSet, let pipeline = decoder.pipeline {
                pipeline.soloRowsLeft = 4
                soloSet = true
            }
        }
        XCTAssertEqual(Digest.sha256(try decoder.finish().pixels), entry.reference?.sha256)
        let pipeline = try XCTUnwrap(decoder.pipeline)
        XCTAssertTrue(soloSet)
        XCTAssertGreaterThanOrEqual(pipeline.jobsRunByCaller, 4)
    }

    func testEmbeddedThumbnailPreviewIsTheSameOnTwoThreads() throws {
        let bytes = try Fixtures.bytes("jpeg-extra/thumbnail/exif_thumbnail.jpg")
        let one = JPEGDecoder(), two = JPEGDecoder(options: twoThreads)
        for piece in Chunking.fixed(bytes, size: 1500) {
            try one.feed(piece)
            try two.feed(piece)
            XCTAssertEqual(one.currentImage(), two.currentImage(), "after \(piece.endIndex) bytes")
        }
        XCTAssertEqual(try one.finish(), try two.finish())
    }

    func testSeededMutationsNeverTrapOnTwoThreads() throws {
        let paths = ["jpeg/generated/testorig_restart_3B.jpg", "jpeg/generated/synth_nonstd_2x2_2x1_1x1.jpg",
                     "jpeg/generated/synth_baseline_q95_444.jpg", "jpeg/generated/odd_7x9_420.jpg"]
        let outcome = try JPEGReferenceChecks.mutationSweep(paths, perFile: 60, seed: 0x2_7EAD, threads: 2)
        XCTAssertEqual(outcome.problems, [])
        XCTAssertGreaterThan(outcome.successes + outcome.errors.values.reduce(0, +), 0)
        XCTAssertEqual(outcome.successes + outcome.errors.values.reduce(0, +), paths.count * 60)
    }
}
