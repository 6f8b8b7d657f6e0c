import XCTest
import ImageCore
import JPEGCodec
import TestSupport

/// Progressive previews: each scan's picture, the generation counter, truncated files.
final class JPEGProgressivePreviewTests: XCTestCase {
    /// The photographic progressive fixtures (cjpeg's default progressive script).
    private let photos = ["corpus/jpeg/generated/testorig_progressive.jpg", "demo/harvesters_progressive.jpg"]

    /// Feeds `bytes` up to just past each later SOS marker (and EOI), so the scan before it is complete and
    /// the next not begun; returns the completed-scan count and picture at each of those points.
    private func previewsAtScanEnds(_ bytes: [UInt8]) throws -> (scans: [Int], images: [Image], final: Image) {
        let decoder = JPEGDecoder()
        var fed = 0, scans: [Int] = [], images: [Image] = []
        for marker in JPEGScanBoundaries.markerOffsets(in: bytes).dropFirst() {
            try decoder.feed(bytes[fed..<(marker + 2)])
            fed = marker + 2
            scans.append(decoder.status.progress?.completedScans ?? -1)
            if let image = decoder.currentImage() { images.append(image) }
        }
        try decoder.feed(bytes[fed...])
        return (scans, images, try decoder.finish())
    }

    func testEveryScanMakesThePreviewCloserToTheFinalImage() throws {
        for path in photos + ["corpus/jpeg/generated/testorig_progressive_succ_approx.jpg",
                              "corpus/jpeg/generated/synth_progressive.jpg"] {
            let bytes = try Fixtures.bytes(path)
            let (scans, images, final) = try previewsAtScanEnds(bytes)
            XCTAssertEqual(scans, Array(1...scans.count), path)
            XCTAssertGreaterThanOrEqual(images.count, 6, path)
            XCTAssertEqual(images.last, final, path)
            let ratios = images.map { JPEGScanBoundaries.psnr($0, final) }
            for (earlier, later) in zip(ratios, ratios.dropFirst()) {
                XCTAssertGreaterThanOrEqual(later, earlier, "\(path): PSNR by scan \(ratios)")
            }
        }
    }

    func testFirstPreviewAfterTheDCScanIsRecognisable() throws {
        for path in photos {
            let (_, images, final) = try previewsAtScanEnds(try Fixtures.bytes(path))
            let first = try XCTUnwrap(images.first)
            XCTAssertGreaterThanOrEqual(JPEGScanBoundaries.psnr(first, final), 20, path)
        }
    }

    func testPreviewGenerationStaysWhileThePictureStays() throws {
        let bytes = try Fixtures.bytes("corpus/jpeg/generated/testorig_progressive.jpg")
        let decoder = JPEGDecoder()
        var generation = -1, picture: Image?, changes = 0, falseBumps = 0
        for piece in Chunking.fixed(bytes, size: 7) {
            let status = try decoder.feed(piece)
            let now = status.progress?.previewGeneration ?? -1
            let image = decoder.currentImage()
            if now == generation {
                XCTAssertEqual(image, picture, "picture changed without a new generation at byte \(piece.endIndex)")
            } else {
                changes += 1
                if image == picture { falseBumps += 1 }
                generation = now
                picture = image
            }
        }
        XCTAssertEqual(try decoder.finish(), picture)
        // At least one change per scan; fewer than the 807 pieces (many pieces end inside the same
        // MCU), and a new generation nearly always brings a new picture (an MCU whose blocks an EOB
        // run leaves as they were is the exception; measured 2 of 457).
        XCTAssertGreaterThanOrEqual(changes, 10)
        XCTAssertLessThan(changes, 600)
        XCTAssertLessThanOrEqual(falseBumps * 20, changes, "\(falseBumps) of \(changes) new generations kept the picture")
    }

    func testDuringAScanOnlyTheRowsItReachedChange() throws {
        let bytes = try Fixtures.bytes("demo/harvesters_progressive.jpg")
        let markers = JPEGScanBoundaries.markerOffsets(in: bytes)
        // Halfway through the second scan (the first AC scan).
        // At the scan's start (its header parsed, no data yet): the preview smoothing may change then.
        let dataStart = markers[1] + 2 + (Int(bytes[markers[1] + 2]) << 8 | Int(bytes[markers[1] + 3]))
        let decoder = JPEGDecoder()
        try decoder.feed(bytes[..<dataStart])
        let afterFirst = try XCTUnwrap(decoder.currentImage())
        try decoder.feed(bytes[dataStart..<((markers[1] + markers[2]) / 2)])
        let midway = try XCTUnwrap(decoder.currentImage())
        let rowBytes = afterFirst.width * 3
        let changedRows = (0..<afterFirst.height).filter { row in
            afterFirst.pixels[(row * rowBytes)..<((row + 1) * rowBytes)] != midway.pixels[(row * rowBytes)..<((row + 1) * rowBytes)]
        }
        let firstChanged = try XCTUnwrap(changedRows.first)
        let lastChanged = try XCTUnwrap(changedRows.last)
        XCTAssertEqual(firstChanged, 0)
        XCTAssertLessThan(lastChanged, afterFirst.height - 16, "rows below the scan's progress must not change yet")
    }

    func testTruncatedFileKeepsEveryFinishedScan() throws {
        let bytes = try Fixtures.bytes("corpus/jpeg/generated/testorig_progressive_succ_approx.jpg")
        let (_, images, _) = try previewsAtScanEnds(bytes)
        let markers = JPEGScanBoundaries.markerOffsets(in: bytes)
        // Cut just before the SOS of scan k + 1: k scans are whole.
        for (k, marker) in markers.dropFirst().dropLast().enumerated() {
            let decoder = JPEGDecoder()
            try decoder.feed(bytes[..<marker])
            XCTAssertThrowsError(try decoder.finish()) { XCTAssertEqual(($0 as? ImageDecodingError)?.kind, .truncated) }
            XCTAssertEqual(decoder.currentImage(), images[k], "cut after scan \(k + 1)")
        }
    }

    func testTruncationSweepAlwaysGivesTruncatedAndAWholePicture() throws {
        for path in ["corpus/jpeg/generated/testorig_progressive_restart_5B.jpg",
                     "corpus/jpeg/generated/synth_progressive_succ_approx.jpg"] {
            let bytes = try Fixtures.bytes(path)
            let final = try JPEGDecoder().decode(bytes)
            var cut = 200
            while cut < bytes.count - 2 {
                let decoder = JPEGDecoder()
                try decoder.feed(bytes[..<cut])
                XCTAssertThrowsError(try decoder.finish(), "\(path) cut at \(cut)") {
                    XCTAssertEqual(($0 as? ImageDecodingError)?.kind, .truncated, "\(path) cut at \(cut)")
                }
                let image = decoder.currentImage()
                XCTAssertEqual(image?.width, final.width)
                XCTAssertEqual(image?.pixels.count, final.pixels.count, "\(path) cut at \(cut)")
                cut += 53
            }
        }
    }

    func testStatusCountsCompletedScans() throws {
        let bytes = try Fixtures.bytes("corpus/jpeg/generated/synth_progressive.jpg")
        let decoder = JPEGDecoder()
        let status = try decoder.feed(bytes)
        XCTAssertEqual(status.isComplete, true)
        XCTAssertEqual(status.progress?.completedScans, JPEGScanBoundaries.markerOffsets(in: bytes).count - 1)
    }
}
