import XCTest
import ImageCore
import JPEGCodec
import TestSupport

/// Arithmetic-coded files decode as their bytes arrive: previews follow the data, depend only
/// on the bytes buffered (not on how they were split), and the work is O(total bytes).
final class JPEGArithmeticIncrementalTests: XCTestCase {
    private let files = ["files/tran_synth_baseline_q95_444.jpg", "files/seq_422_restart3B.jpg",
                         "files/prog_444_restart1.jpg", "files/tran_deep_successive_approximation.jpg"]

    func testPreviewAfterAnyPieceEqualsAFreshDecodeOfTheSameBytes() throws {
        for path in files {
            let bytes = try Fixtures.bytes("jpeg-arith/" + path)
            let decoder = JPEGDecoder()
            var checked = 0
            for (index, byte) in bytes.enumerated() {
                try decoder.feed([byte])
                // About 12 sample points per file, at odd offsets.
                guard (index + 1) % (bytes.count / 12 + 1) == 0 else { continue }
                let fresh = JPEGDecoder()
                try fresh.feed(bytes[..<(index + 1)])
                XCTAssertEqual(decoder.currentImage(), fresh.currentImage(), "\(path) after \(index + 1) bytes")
                XCTAssertEqual(decoder.status.progress?.completedRows, fresh.status.progress?.completedRows, path)
                checked += 1
            }
            XCTAssertGreaterThanOrEqual(checked, 10, path)
        }
    }

    func testSequentialRowsAppearWhileTheScanArrives() throws {
        // 192×128 4:4:4 at quality 95: about 22 KB of entropy-coded data in one scan. The bound
        // for one MCU (three blocks) is 11.9 KB, so only tentative decoding shows rows this early.
        let bytes = try Fixtures.bytes("jpeg-arith/files/tran_synth_baseline_q95_444.jpg")
        let decoder = JPEGDecoder()
        var rowsAtHalf = 0
        for (index, piece) in Chunking.fixed(bytes, size: 512).enumerated() {
            try decoder.feed(piece)
            if (index + 1) * 512 >= bytes.count / 2 && rowsAtHalf == 0 { rowsAtHalf = decoder.status.progress?.completedRows ?? 0 }
        }
        // Rows come in MCU rows of 8: at half the bytes, at least a third of the 128 rows show.
        XCTAssertGreaterThanOrEqual(rowsAtHalf, 40)
        XCTAssertLessThan(rowsAtHalf, 128)
    }

    func testProgressiveScansShowAsTheyArrive() throws {
        let bytes = try Fixtures.bytes("jpeg-arith/files/prog_420.jpg")
        let boundaries = try ScanBoundary.all(in: bytes, decoder: JPEGDecoder())
        // cjpeg's progressive script has 10 scans; each completed one is seen before the file ends.
        XCTAssertEqual(boundaries.map(\.scans), Array(1...9))
        let generations = Set(boundaries.map { Digest.sha256($0.image.pixels) })
        XCTAssertEqual(generations.count, boundaries.count, "every scan changes the picture")
    }

    func testWorkIsLinearInTheInputForOneByteFeeding() throws {
        for path in files {
            let bytes = try Fixtures.bytes("jpeg-arith/" + path)
            let decoder = JPEGDecoder()
            for piece in Chunking.fixed(bytes, size: 1) { try decoder.feed(piece) }
            _ = try decoder.finish()
            XCTAssertLessThanOrEqual(decoder.inputBytesExamined, 2 * bytes.count, path)
            XCTAssertGreaterThanOrEqual(decoder.inputBytesExamined, bytes.count - 2, path)
        }
    }
}
