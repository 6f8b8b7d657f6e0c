import XCTest
import ImageCore
@testable import JPEGCodec
import TestSupport

/// Progressive files on two threads draw the top of the final picture while the last scan is
/// decoded (`EarlyFinalBand`): the pictures, previews and errors are still the one-thread ones,
/// for every chunking, when the file ends inside that scan, and when another scan follows it.
final class JPEGTwoThreadProgressiveTests: XCTestCase {
    private let twoThreads = DecodingOptions(maximumThreads: 2)
    /// Progressive files whose last scan leaves every coefficient exact, with many iMCU rows or odd layouts.
    private let paths = ["jpeg/generated/testorig_progressive.jpg", "jpeg/generated/synth_progressive_444.jpg",
                         "jpeg/generated/testorig_progressive_restart_5B.jpg", "jpeg/generated/synth_gray_progressive.jpg",
                         "jpeg/generated/odd_1x1000_422_progressive.jpg", "jpeg/generated/testorig_progressive_dc_noninterleaved.jpg"]

    func testEveryChunkingDrawsTheReferenceWithTheEarlyBand() throws {
        var failures: [String] = []
        for (index, path) in paths.enumerated() {
            let entry = try JPEGCorpus.entry(path)
            let bytes = try CorpusManifest.bytes(of: entry)
            var chunkings = JPEGReferenceChecks.chunkings(bytes, seed: UInt64(index) &+ 0xEA_B1)
            if !chunkings.contains(where: { $0.0 == "1-byte" }) { chunkings.append(("1-byte", Chunking.fixed(bytes, size: 1))) }
            failures += JPEGReferenceChecks.mismatches(entry, bytes: bytes, chunkings: chunkings, options: twoThreads)
            // Fed whole, the final picture is finished from the band the worker began during the last scan.
            let decoder = JPEGDecoder(options: twoThreads)
            try decoder.feed(bytes)
            XCTAssertEqual(Digest.sha256(try decoder.finish().pixels), entry.reference?.sha256, path)
            XCTAssertEqual(decoder.preview?.earlyBandPictures, 1, path)
        }
        XCTAssertEqual(failures, [])
    }

    func testEveryScaleDrawsTheOneThreadPictureWithTheEarlyBand() throws {
        for path in paths {
            let bytes = try JPEGCorpus.bytes(path)
            for scale in [ScaleFactor.half, .quarter, .eighth] {
                let one = JPEGDecoder(options: DecodingOptions(scale: scale))
                let two = JPEGDecoder(options: DecodingOptions(scale: scale, maximumThreads: 2))
                try one.feed(bytes)
                try two.feed(bytes)
                XCTAssertEqual(try two.finish(), try one.finish(), "\(path) \(scale)")
                XCTAssertEqual(two.preview?.earlyBandPictures, 1, "\(path) \(scale)")
            }
        }
    }

    func testAFileEndingInsideTheLastScanGivesTheOneThreadPictureAndError() throws {
        for path in paths.prefix(3) {
            let bytes = try JPEGCorpus.bytes(path)
            let lastScan = try XCTUnwrap(Self.scanOffsets(bytes).last, path)
            for step in 1...12 {
                let cut = lastScan + (bytes.count - lastScan) * step / 13
                let truncated = Array(bytes[..<cut])
                XCTAssertEqual(try Self.outcome(truncated, options: twoThreads), try Self.outcome(truncated, options: DecodingOptions()),
                               "\(path) cut at \(cut)")
            }
        }
    }

    func testDamageInsideTheLastScanGivesTheOneThreadPictureAndError() throws {
        for path in paths.prefix(3) {
            let bytes = try JPEGCorpus.bytes(path)
            let lastScan = try XCTUnwrap(Self.scanOffsets(bytes).last, path)
            var rng = SeededGenerator(seed: 0xDA_3A6E)
            for _ in 0..<12 {
                var damaged = bytes
                let at = Int.random(in: (lastScan + 20)..<(bytes.count - 2), using: &rng)
                damaged[at] = UInt8.random(in: 0...255, using: &rng)
                damaged[at + 1] = 0xFF
                XCTAssertEqual(try Self.outcome(damaged, options: twoThreads), try Self.outcome(damaged, options: DecodingOptions()),
                               "\(path) damaged at \(at)")
            }
        }
    }

    func testAScanAfterTheExactScanRedrawsItsRows() throws {
        // The last scan sent twice: the second changes coefficients the first band drew, so
        // that band is dropped and the picture is the one thread's.
        for path in paths.prefix(3) {
            let bytes = try JPEGCorpus.bytes(path)
            let lastScan = try XCTUnwrap(Self.scanOffsets(bytes).last, path)
            let doubled = Array(bytes[..<(bytes.count - 2)]) + Array(bytes[lastScan..<(bytes.count - 2)]) + [0xFF, 0xD9]
            let one = try Self.outcome(doubled, options: DecodingOptions())
            XCTAssertNotEqual(one.sha256, try Self.outcome(bytes, options: DecodingOptions()).sha256, path)
            XCTAssertEqual(try Self.outcome(doubled, options: twoThreads), one, path)
        }
    }

    func testPreviewsTakenDuringTheLastScanAreTheOneThreadOnesAndStayAsTheyWere() throws {
        for path in paths.prefix(3) + ["jpeg/generated/synth_baseline_q95_444.jpg"] {
            let bytes = try JPEGCorpus.bytes(path)
            let one = JPEGDecoder(), two = JPEGDecoder(options: twoThreads)
            var kept: [(Image, String)] = []
            for piece in Chunking.fixed(bytes, size: 613) {
                try one.feed(piece)
                try two.feed(piece)
                let image = try XCTUnwrap(two.currentImage(), path)
                XCTAssertEqual(image, one.currentImage(), "\(path) after \(piece.endIndex) bytes")
                kept.append((image, Digest.sha256(image.pixels)))
            }
            XCTAssertEqual(try two.finish(), try one.finish(), path)
            // No worker wrote into a picture after it was handed out.
            for (index, (image, digest)) in kept.enumerated() { XCTAssertEqual(Digest.sha256(image.pixels), digest, "\(path) preview \(index)") }
        }
    }

    /// The pixels and error of a one-shot decode of `bytes`.
    private struct Outcome: Equatable {
        let sha256: String
        let error: ImageDecodingError.Kind?
    }

    private static func outcome(_ bytes: [UInt8], options: DecodingOptions) throws -> Outcome {
        let decoder = JPEGDecoder(options: options)
        var kind: ImageDecodingError.Kind?
        do {
            try decoder.feed(bytes)
            _ = try decoder.finish()
        } catch let error as ImageDecodingError {
            kind = error.kind
        }
        return Outcome(sha256: Digest.sha256(try XCTUnwrap(decoder.currentImage()).pixels), error: kind)
    }

    /// Offsets of the SOS markers of `bytes` (marker segments walked from SOI; scan data skipped).
    private static func scanOffsets(_ bytes: [UInt8]) -> [Int] {
        var offsets: [Int] = []
        var index = 2
        while index + 3 < bytes.count {
            guard bytes[index] == 0xFF else { index += 1; continue }
            let marker = bytes[index + 1]
            if marker == 0xFF || marker == 0x00 || (0xD0...0xD7).contains(marker) { index += 1; continue }
            if marker == 0xD9 { break }
            if marker == 0xDA { offsets.append(index) }
            index += 2 + Int(bytes[index + 2]) << 8 + Int(bytes[index + 3])
            if marker == 0xDA {
                // Skip the entropy-coded data to the next marker that is not a stuffed byte or RST.
                while index + 1 < bytes.count && !(bytes[index] == 0xFF && bytes[index + 1] != 0 && !(0xD0...0xD7).contains(bytes[index + 1])) {
                    index += 1
                }
            }
        }
        return offsets
    }

    func testABandThatCannotFinishTheCutPictureIsDrawnOver() throws {
        // A fuzz finding (TestImages/jpeg-extra/twothreads): a file derived from the corpus whose
        // scans repeat after every coefficient is exact, so each later scan has an early band; the
        // last one is damaged early and a second SOF2 then ends decoding. Rows past the damaged
        // scan's last good iMCU row get the earlier smoothing, which the band's worker does not
        // draw: the band is drawn over, and the picture, error and warnings are one thread's,
        // with and without scans on the worker.
        let bytes = try Fixtures.bytes("jpeg-extra/twothreads/fuzz_band_finishing_past_last_good_row.jpg")
        for scale in [ScaleFactor.full, .quarter] {
            var outcomes: [String] = [], pictures: [Image?] = []
            for (threads, handOver) in [(1, 1), (2, Int.max), (2, 1)] {
                let decoder = JPEGDecoder(options: DecodingOptions(scale: scale, maximumThreads: threads))
                decoder.minimumHandOverBytes = handOver
                var thrown = "none"
                do {
                    try decoder.feed(bytes)
                    _ = try decoder.finish()
                } catch {
                    thrown = "\(error)"
                }
                outcomes.append(thrown + " / " + decoder.warnings.map(\.description).joined(separator: "; "))
                pictures.append(decoder.currentImage())
            }
            XCTAssertTrue(outcomes[0].hasPrefix("invalidData at byte 6154: second frame header"), "\(scale): \(outcomes[0])")
            XCTAssertEqual(outcomes[1], outcomes[0], "\(scale)")
            XCTAssertEqual(outcomes[2], outcomes[0], "\(scale)")
            XCTAssertNotNil(pictures[0])
            XCTAssertTrue(pictures[1] == pictures[0], "\(scale): two threads, no scans on the worker")
            XCTAssertTrue(pictures[2] == pictures[0], "\(scale): two threads, scans on the worker")
        }
    }
}
