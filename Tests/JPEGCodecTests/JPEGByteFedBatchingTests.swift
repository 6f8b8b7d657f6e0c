import Foundation
import XCTest
import ImageCore
@testable import JPEGCodec
import TestSupport

/// Fed a byte at a time, a scan decodes in batches: its entropy decoder runs when the stream
/// reaches a multiple of 256 bytes (or a 0xFF byte or a marker arrives) and then goes through every
/// MCU that has room, checking the room per MCU inside the block loops, so runs and batches stay
/// far below the MCU count (a run per MCU cost more than decoding it). What each piece shows stays
/// what a fresh decoder fed the same bytes at once shows.
final class JPEGByteFedBatchingTests: XCTestCase {
    private struct Reference: Decodable { let width: Int, height: Int, sha256: String }

    func testAByteFedScanRunsPerStepAndDecodesMCUsInBatches() throws {
        let references = try JSONDecoder().decode([String: Reference].self,
                                                  from: Data(contentsOf: Fixtures.url("jpeg-extra/bytefed/references.json")).dropFirstEntry())
        // (path, reference for the gray file)
        let files: [(String, Reference?)] = [
            ("jpeg-extra/bytefed/harvesters_gray_baseline.jpg", references["harvesters_gray_baseline.jpg"]),
            ("demo/harvesters_progressive.jpg", nil),
        ]
        for (path, reference) in files {
            let bytes = try Fixtures.bytes(path)
            let decoder = JPEGDecoder()
            for byte in bytes { try decoder.feed([byte]) }
            let image = try decoder.finish()
            let whole = JPEGDecoder()
            try whole.feed(bytes)
            XCTAssertEqual(image, try whole.finish(), path)
            if let reference {
                XCTAssertEqual([image.width, image.height], [reference.width, reference.height], path)
                XCTAssertEqual(Digest.sha256(image.pixels), reference.sha256, path)
            }
            let scans = try XCTUnwrap(decoder.status.progress?.completedScans)
            // 0xFF followed by anything but 0x00: markers and fill. (A stuffed 0xFF 0x00 runs
            // nothing; the gray file has about 270 of them, which ran the decoder twice each.)
            let markers = zip(bytes, bytes.dropFirst()).filter { $0.0 == 0xFF && $0.1 != 0 }.count
            XCTAssertLessThan(markers, 40, path)
            // One run per 256-byte step (an eighth more where a step ends on a 0xFF), two per
            // marker, a few per scan.
            let steps = bytes.count / 256
            XCTAssertLessThanOrEqual(decoder.scanRuns, steps + steps / 8 + 2 * markers + 4 * scans + 4, path)
            // Batches of six MCUs or more on average: one MCU per batch (the old behaviour, which
            // checked the room before each MCU outside the block loops) would make at least one
            // batch per 8×8 block of the picture (8,214 here).
            XCTAssertLessThanOrEqual(decoder.mcuBatches * 6, image.width * image.height / 64, path)
            XCTAssertGreaterThan(decoder.mcuBatches, 0, path)
        }
    }

    func testByteFedPiecesShowWhatAFreshDecodeOfTheSamePrefixShows() throws {
        for path in ["jpeg-extra/bytefed/harvesters_gray_baseline.jpg", "demo/harvesters_progressive.jpg"] {
            let bytes = try Fixtures.bytes(path)
            let decoder = JPEGDecoder()
            var compared = 0
            // Seven points at odd offsets, inside scans.
            let points = Set((1...7).map { $0 * bytes.count / 8 + 13 })
            for (index, byte) in bytes.enumerated() {
                try decoder.feed([byte])
                guard points.contains(index + 1) else { continue }
                let fresh = JPEGDecoder()
                try fresh.feed(bytes[...index])
                XCTAssertEqual(decoder.status.progress?.completedRows, fresh.status.progress?.completedRows, "\(path) at \(index + 1)")
                XCTAssertEqual(decoder.status.progress?.completedScans, fresh.status.progress?.completedScans, "\(path) at \(index + 1)")
                XCTAssertEqual(decoder.currentImage(), fresh.currentImage(), "\(path) at \(index + 1)")
                compared += 1
            }
            XCTAssertEqual(compared, 7, path)
        }
    }

    /// Bytes only buffered wait in the decoder's own small buffer (`heldBytes`) until the parser
    /// runs. An MCU of ten blocks may need more bytes than that buffer holds, so the budget stops
    /// at its capacity and the parser runs once more; pieces of one and more bytes, with 0xFF
    /// stuffing, must all arrive in order.
    func testHeldBytesKeepOrderAcrossPieceSizesAndTheBufferCap() throws {
        let references = try JSONDecoder().decode([String: Reference].self,
                                                  from: Data(contentsOf: Fixtures.url("jpeg-extra/bytefed/references.json")).dropFirstEntry())
        let reference = try XCTUnwrap(references["harvesters_10block_baseline.jpg"])
        let bytes = try Fixtures.bytes("jpeg-extra/bytefed/harvesters_10block_baseline.jpg")
        for pieces in [[1], [1, 1, 2, 1, 3, 1, 1, 7, 1, 5, 64, 1]] {
            let decoder = JPEGDecoder()
            var start = 0, turn = 0, largestBudget = 0, heldPieces = 0
            while start < bytes.count {
                let end = min(start + pieces[turn % pieces.count], bytes.count)
                let before = decoder.scanRuns
                try decoder.feed(bytes[start..<end])
                if decoder.scanRuns == before && decoder.budgetGranted > 0 { heldPieces += 1 }
                largestBudget = max(largestBudget, decoder.budgetGranted)
                start = end
                turn += 1
            }
            let image = try decoder.finish()
            XCTAssertEqual([image.width, image.height], [reference.width, reference.height], "\(pieces)")
            XCTAssertEqual(Digest.sha256(image.pixels), reference.sha256, "\(pieces)")
            // Ten blocks of up to 496 bytes: the wait is longer than the buffer, which caps it.
            XCTAssertEqual(largestBudget, JPEGDecoder.heldBytesCapacity, "\(pieces)")
            // Most pieces are only held (the file is 70 KB).
            XCTAssertGreaterThan(heldPieces * 10, turn * 9, "\(pieces)")
            // Held bytes count as examined once handed over.
            XCTAssertGreaterThanOrEqual(decoder.inputBytesExamined, bytes.count - 2, "\(pieces)")
            XCTAssertLessThanOrEqual(decoder.inputBytesExamined, 2 * bytes.count, "\(pieces)")
        }
    }
}

private extension Data {
    /// The references file without its "made_with" entry (a string, not a reference).
    func dropFirstEntry() throws -> Data {
        guard var object = try JSONSerialization.jsonObject(with: self) as? [String: Any] else { return self }
        object["made_with"] = nil
        return try JSONSerialization.data(withJSONObject: object)
    }
}
