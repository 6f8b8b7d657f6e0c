import ImageCore
@testable import imagefeed
import XCTest

/// The contact sheet's parts: frame picking, the box filter and the layout.
final class ContactSheetTests: XCTestCase {
    func testFramesArePickedAtEvenStepsOfDistanceFromTheFinal() {
        // The documented example: targets 32, 24, 16, 8 are first met by frames 1, 2, 3, 5.
        XCTAssertEqual(FrameSelection.pick(distances: [40, 31, 22, 12, 9, 5, 3, 1, 0], count: 6), [0, 1, 2, 3, 5, 8])
    }

    func testAStepNoFrameReachesBeforeTheFinalLeavesItsCellOut() {
        // After 100 the picture jumps to 10: only the 20 target (k = 4) finds a frame.
        XCTAssertEqual(FrameSelection.pick(distances: [100, 10, 0], count: 6), [0, 1, 2])
        XCTAssertEqual(FrameSelection.pick(distances: [100, 0], count: 6), [0, 1])
    }

    func testAFirstPreviewEqualToTheFinalShowsTheFinalAlone() {
        XCTAssertEqual(FrameSelection.pick(distances: [0, 0, 0], count: 6), [2])
        XCTAssertEqual(FrameSelection.pick(distances: [7], count: 6), [0])
        XCTAssertEqual(FrameSelection.pick(distances: [], count: 6), [])
    }

    func testDistanceIsTheMeanAbsoluteSampleDifference() {
        let a = Image(width: 2, height: 1, format: .rgb8, pixels: [0, 10, 20, 30, 40, 50])
        let b = Image(width: 2, height: 1, format: .rgb8, pixels: [6, 10, 14, 30, 40, 56])
        XCTAssertEqual(FrameSelection.distance(a, b), 18.0 / 6.0)
    }

    func testBoxFilterAveragesWholeSourcePixelsAndRounds() {
        // 4 × 2 gray to 2 × 1: each output pixel is the mean of a 2 × 2 box.
        let gray = Image(width: 4, height: 2, format: .gray8, pixels: [0, 10, 100, 101, 20, 31, 200, 200])
        let small = ThumbnailScaler.scale(gray, width: 2, height: 1, background: 255)
        // (0 + 10 + 20 + 31) / 4 = 15.25 → 15; (100 + 101 + 200 + 200) / 4 = 150.25 → 150.
        XCTAssertEqual(small.format, .rgb8)
        XCTAssertEqual(small.pixels, [15, 15, 15, 150, 150, 150])
    }

    func testTransparentPixelsShowTheBackground() {
        // Red at alpha 51 (20 %) over white: 255 · 0.2 + 255 · 0.8 = 255; green 0 · 0.2 + 255 · 0.8 = 204.
        let pixel = Image(width: 1, height: 1, format: .rgba8, pixels: [255, 0, 0, 51])
        XCTAssertEqual(ThumbnailScaler.scale(pixel, width: 1, height: 1, background: 255).pixels, [255, 204, 204])
    }

    func testEnlargingRepeatsPixels() {
        let two = Image(width: 2, height: 1, format: .gray8, pixels: [10, 200])
        let row: [UInt8] = [10, 10, 200, 200].flatMap { [$0, $0, $0] }
        XCTAssertEqual(ThumbnailScaler.scale(two, width: 4, height: 2, background: 0).pixels, row + row)
        XCTAssertEqual(ThumbnailScaler.boxes(from: 900, to: 200).prefix(3), [0..<4, 4..<9, 9..<13])
        XCTAssertEqual(ThumbnailScaler.boxes(from: 2, to: 4), [0..<1, 0..<1, 1..<2, 1..<2])
    }

    func testLayoutOfTheDocumentedExample() {
        let layout = ContactSheetLayout(rows: [(6, 900, 600), (6, 888, 592)])
        XCTAssertEqual(layout.rowHeights, [133, 133])
        XCTAssertEqual([layout.width, layout.height], [1256, 290])
        XCTAssertTrue(layout.origin(row: 1, column: 2) == (8 + 2 * 208, 8 + 133 + 8))
    }

    func testShortRowsLeaveTheSheetAsWideAsTheLongest() {
        let cell = ContactSheetLayout.cellWidth, gap = ContactSheetLayout.gap
        let layout = ContactSheetLayout(rows: [(2, 480, 320), (4, 100, 300), (9, 10, 10)])
        // 320 · cell / 480 and 300 · cell / 100, rounded; the third row is capped at maxColumns.
        XCTAssertEqual(layout.rowHeights, [(2 * cell + 1) / 3, 3 * cell, cell])
        XCTAssertEqual(layout.columns, [2, 4, ContactSheetLayout.maxColumns])
        XCTAssertEqual(layout.width, gap + ContactSheetLayout.maxColumns * (cell + gap))
        XCTAssertEqual(layout.height, gap + layout.rowHeights.reduce(0) { $0 + $1 + gap })
    }
}
