import XCTest
import ImageCore
import JPEGCodec
import TestSupport

/// Incremental previews are exact: the picture after any piece equals the picture a fresh decoder
/// draws from the same prefix fed at once. The decoder re-renders only what changed since its last
/// preview, so this proves that the rows it keeps are the ones that did not change (dirty tracking
/// per component, preview smoothing that follows the scan under way, partly decoded MCU rows).
final class JPEGProgressivePreviewConsistencyTests: XCTestCase {
    /// Feeds `pieces` to one decoder, taking a preview after the pieces `takePreview` picks, and
    /// compares every `compareEvery`-th preview (and the last) with a fresh decoder's picture of
    /// the same prefix. Returns how many previews differed from the one before (so a test can
    /// check it saw pictures change).
    @discardableResult
    private func assertPreviewsMatchFreshDecodes(_ bytes: [UInt8], pieces: [ArraySlice<UInt8>],
                                                 options: DecodingOptions = DecodingOptions(),
                                                 takePreview: (Int) -> Bool = { _ in true }, compareEvery: Int = 1,
                                                 _ label: String) throws -> Int {
        let incremental = JPEGDecoder(options: options)
        var changes = 0, previous: Image?, previews = 0
        for (index, piece) in pieces.enumerated() {
            try incremental.feed(piece)
            guard takePreview(index) || index == pieces.count - 1 else { continue }
            let preview = incremental.currentImage()
            if preview != previous { changes += 1 }
            previous = preview
            previews += 1
            guard previews % compareEvery == 0 || index == pieces.count - 1 else { continue }
            let fresh = JPEGDecoder(options: options)
            try fresh.feed(bytes[..<piece.endIndex])
            let expected = fresh.currentImage()
            XCTAssertEqual(preview?.pixels.count, expected?.pixels.count, "\(label): size after \(piece.endIndex) bytes")
            if preview != expected {
                XCTFail("\(label): preview after \(piece.endIndex) bytes differs from a fresh decode of that prefix")
                return changes
            }
        }
        return changes
    }

    func testPreviewAfterEveryPieceEqualsAFreshDecodeOfThePrefix() throws {
        let entries = try JPEGProgressiveCorpus.decodeEntries()
        XCTAssertGreaterThanOrEqual(entries.count, 20)
        for (number, entry) in entries.enumerated() {
            let bytes = try CorpusManifest.bytes(of: entry)
            // About 25 pieces per file, of random sizes, so pieces end inside MCU rows and markers.
            let pieces = Chunking.random(bytes, seed: UInt64(number + 1), maxSize: max(bytes.count / 12, 2))
            let changes = try assertPreviewsMatchFreshDecodes(bytes, pieces: pieces, compareEvery: 2, entry.path)
            if bytes.count > 4000 { XCTAssertGreaterThan(changes, 10, entry.path) }
        }
    }

    func testPreviewsTakenNowAndThenEqualFreshDecodes() throws {
        // Several pieces between previews: changes accumulate across feeds and scan boundaries.
        var rng = SeededGenerator(seed: 99)
        for path in ["jpeg/generated/testorig_progressive_succ_approx.jpg", "jpeg/generated/synth_progressive_444.jpg",
                     "jpeg/generated/testorig_progressive_dc_noninterleaved.jpg", "jpeg/generated/synth_progressive_restart_5B.jpg"] {
            let bytes = try JPEGCorpus.bytes(path)
            let pieces = Chunking.random(bytes, seed: 7, maxSize: 150)
            let picks = (0..<pieces.count).map { _ in Int.random(in: 0..<5, using: &rng) == 0 }
            try assertPreviewsMatchFreshDecodes(bytes, pieces: pieces, takePreview: { picks[$0] }, path)
        }
    }

    func testScaledPreviewsEqualFreshDecodes() throws {
        for scale in [ScaleFactor.half, .quarter, .eighth] {
            for path in ["jpeg/generated/testorig_progressive.jpg", "jpeg/generated/synth_progressive_444.jpg",
                         "jpeg/generated/odd_33x17_422_progressive.jpg"] {
                let bytes = try JPEGCorpus.bytes(path)
                try assertPreviewsMatchFreshDecodes(bytes, pieces: Chunking.random(bytes, seed: 3, maxSize: 300),
                                                    options: DecodingOptions(scale: scale), compareEvery: 2,
                                                    "\(path) at 1/\(scale.rawValue)")
            }
        }
    }

    func testPhotoFedIn4KiBPiecesEqualsFreshDecodes() throws {
        // The benchmark's pattern: a photograph fed 4 KiB at a time, a preview after each piece.
        let bytes = try Fixtures.bytes("demo/harvesters_progressive.jpg")
        let changes = try assertPreviewsMatchFreshDecodes(bytes, pieces: Chunking.fixed(bytes, size: 4096), compareEvery: 4,
                                                          "harvesters")
        XCTAssertGreaterThan(changes, 20)
    }

    func testTruncatedFileAfterPreviewsEqualsTruncatedFileWithout() throws {
        // The last picture of a file that ends early is the same whether previews were drawn or not:
        // cuts every 611 bytes, and inside the last scan (which makes the smoothing of the blocks it
        // has not reached change when the file ends).
        for path in ["jpeg/generated/synth_progressive_succ_approx.jpg", "jpeg/generated/testorig_gray_progressive.jpg",
                     "jpeg/generated/synth_gray_progressive.jpg"] {
            let bytes = try JPEGCorpus.bytes(path)
            let lastScan = try XCTUnwrap(JPEGScanBoundaries.markerOffsets(in: bytes).dropLast().last)
            for cut in Array(stride(from: 700, to: bytes.count - 2, by: 611)) + [(lastScan + bytes.count) / 2] {
                let withPreviews = JPEGDecoder(), without = JPEGDecoder()
                for piece in Chunking.fixed(Array(bytes[..<cut]), size: 97) {
                    try withPreviews.feed(piece)
                    _ = withPreviews.currentImage()
                }
                try without.feed(bytes[..<cut])
                XCTAssertThrowsError(try withPreviews.finish())
                XCTAssertThrowsError(try without.finish())
                XCTAssertEqual(withPreviews.currentImage(), without.currentImage(), "\(path) cut at \(cut)")
            }
        }
    }
}
