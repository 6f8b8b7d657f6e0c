import ImageCore
import PNGCodec
import TestSupport
import XCTest

/// Adam7 previews.
///
/// The fill rule under test: a pixel received in pass p, at (x, y), stands for the rectangle
/// of `blockWidth × blockHeight` pixels whose top-left corner it is (clipped to the image):
/// pass 1 8×8, 2 4×8, 3 4×4, 4 2×4, 5 2×2, 6 1×2, 7 1×1. Rectangles are drawn in pass order,
/// a later pass over an earlier one, and within a pass row by row. So each output pixel shows
/// the most recent received pixel whose rectangle covers it.
final class Adam7PreviewTests: XCTestCase {
    private struct Pass { let x0, y0, dx, dy, bw, bh: Int }
    private static let passes = [
        Pass(x0: 0, y0: 0, dx: 8, dy: 8, bw: 8, bh: 8), Pass(x0: 4, y0: 0, dx: 8, dy: 8, bw: 4, bh: 8),
        Pass(x0: 0, y0: 4, dx: 4, dy: 8, bw: 4, bh: 4), Pass(x0: 2, y0: 0, dx: 4, dy: 4, bw: 2, bh: 4),
        Pass(x0: 0, y0: 2, dx: 2, dy: 4, bw: 2, bh: 2), Pass(x0: 1, y0: 0, dx: 2, dy: 2, bw: 1, bh: 2),
        Pass(x0: 0, y0: 1, dx: 1, dy: 2, bw: 1, bh: 1),
    ]

    /// The preview the fill rule predicts from the final image when `donePasses` passes are
    /// complete and the rows of the next pass whose rectangles end by `rowsOfNextPass` are in.
    private func expectedPreview(_ final: Image, donePasses: Int, rowsOfNextPass: Int) -> [UInt8] {
        let bpp = final.format.bytesPerPixel
        let passCount = min(donePasses, 6) + 1
        // Per pass: the sample column covering each x and the sample row covering each y (-1: none).
        // Pixel (x, y) is covered by a pass when both are known; rows of the pass in progress count
        // only once their rectangles end by `rowsOfNextPass`.
        var sourceColumn = [[Int]](repeating: [], count: passCount)
        var sourceRow = [[Int]](repeating: [], count: passCount)
        for (index, pass) in Self.passes.prefix(passCount).enumerated() {
            sourceColumn[index] = (0..<final.width).map { x in
                x >= pass.x0 && (x - pass.x0) % pass.dx < pass.bw ? x - (x - pass.x0) % pass.dx : -1
            }
            sourceRow[index] = (0..<final.height).map { y in
                guard y >= pass.y0, (y - pass.y0) % pass.dy < pass.bh else { return -1 }
                let sy = y - (y - pass.y0) % pass.dy
                return index == donePasses && sy + pass.bh > rowsOfNextPass ? -1 : sy
            }
        }
        var out = [UInt8](repeating: 0, count: final.pixels.count)
        for y in 0..<final.height {
            for x in 0..<final.width {
                for pass in stride(from: passCount - 1, through: 0, by: -1) {
                    let sx = sourceColumn[pass][x], sy = sourceRow[pass][y]
                    guard sx >= 0, sy >= 0 else { continue }
                    let from = (sy * final.width + sx) * bpp, to = (y * final.width + x) * bpp
                    for b in 0..<bpp { out[to + b] = final.pixels[from + b] }
                    break
                }
            }
        }
        return out
    }

    private func difference(_ a: [UInt8], _ b: [UInt8]) -> Int {
        zip(a, b).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
    }

    /// Feeds `bytes` in `pieceSize` pieces; checks the fill rule after every `checkEvery`-th feed
    /// and at every pass boundary it meets; returns the differences to the final image at the boundaries.
    private func checkPreviews(_ bytes: [UInt8], pieceSize: Int, checkEvery: Int, file: String) throws -> [Int: Int] {
        let final = try PNGTestSupport.decode(bytes)
        let decoder = PNGDecoder()
        var boundaryDifferences: [Int: Int] = [:]
        var checks = 0
        for (index, piece) in Chunking.fixed(bytes, size: pieceSize).enumerated() {
            try decoder.feed(piece)
            guard let progress = decoder.status.progress, progress.completedScans < 7, let preview = decoder.currentImage() else { continue }
            let atBoundary = progress.completedRows == final.height && progress.completedScans > 0
            if atBoundary && boundaryDifferences[progress.completedScans] != nil { continue }
            guard atBoundary || index % checkEvery == 0 else { continue }
            let rows = atBoundary ? 0 : progress.completedRows
            let expected = expectedPreview(final, donePasses: progress.completedScans, rowsOfNextPass: rows)
            XCTAssertTrue(preview.pixels == expected, "\(file): preview after \(progress.completedScans) passes and rows up to \(rows) breaks the fill rule")
            checks += 1
            if atBoundary { boundaryDifferences[progress.completedScans] = difference(preview.pixels, final.pixels) }
        }
        XCTAssertGreaterThanOrEqual(checks, 6, file)
        XCTAssertEqual(try decoder.finish(), final)
        return boundaryDifferences
    }

    func testEachPassPreviewIsTheBlockFillAndApproachesTheFinalImage() throws {
        let bytes = try Fixtures.bytes("corpus/png/extras/rgba16_photo_interlaced.png")
        let differences = try checkPreviews(bytes, pieceSize: 1, checkEvery: 20_000, file: "rgba16_photo_interlaced")
        XCTAssertEqual(differences.keys.sorted(), [1, 2, 3, 4, 5, 6], "every pass boundary was observed")
        let ordered = differences.keys.sorted().compactMap { differences[$0] }
        for (earlier, later) in zip(ordered, ordered.dropFirst()) {
            XCTAssertLessThan(later, earlier, "the preview gets closer to the final image pass by pass: \(ordered)")
        }
    }

    func testMidPassPreviewsOfThePhotoFollowTheFillRule() throws {
        let bytes = try Fixtures.bytes("corpus/png/extras/photo_900x600_adam7.png")
        _ = try checkPreviews(bytes, pieceSize: 4096, checkEvery: 30, file: "photo_900x600_adam7")
    }

    func testTinyInterlacedImagesWithEmptyPassesDecodeAndPreview() throws {
        // basi0g01 etc. are 32×32; s01i3p01 … s08i3p02 have 1…8 pixels a side, so some passes are empty.
        for size in 1...8 {
            let name = "corpus/png/pngsuite/s0\(size)i3p0\(size <= 4 ? 1 : 2).png"
            let bytes = try Fixtures.bytes(name)
            let final = try PNGTestSupport.decode(bytes)
            let decoder = PNGDecoder()
            for piece in Chunking.fixed(bytes, size: 1) {
                try decoder.feed(piece)
                guard decoder.header != nil else { XCTAssertNil(decoder.currentImage()); continue }
                let image = try XCTUnwrap(decoder.currentImage())
                XCTAssertEqual(image.pixels.count, final.pixels.count, name)
            }
            XCTAssertEqual(try decoder.finish(), final, name)
        }
    }

    func testPreviewGenerationChangesExactlyWhenThePictureChanges() throws {
        let bytes = try Fixtures.bytes("corpus/png/pngsuite/basi2c08.png")
        let decoder = PNGDecoder()
        var lastGeneration = decoder.status.previewGeneration
        var lastImage = decoder.currentImage()
        var changes = 0
        for piece in Chunking.fixed(bytes, size: 1) {
            try decoder.feed(piece)
            let generation = decoder.status.previewGeneration
            let image = decoder.currentImage()
            if generation == lastGeneration {
                XCTAssertEqual(image, lastImage, "same generation, same picture")
            } else {
                XCTAssertNotEqual(image, lastImage, "a new generation is a new picture")
                changes += 1
            }
            lastGeneration = generation
            lastImage = image
        }
        // Header, then one change per row that arrived in its own feed: most of the 32 × 15/8 pass rows.
        XCTAssertGreaterThan(changes, 30)
    }
}
