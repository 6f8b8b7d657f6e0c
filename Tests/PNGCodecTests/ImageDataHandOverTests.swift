import ImageCore
import PNGCodec
import TestSupport
import XCTest

/// IDAT bytes reach the inflater at fixed hand-over points (file offsets that are multiples of
/// the image's granule, and IDAT chunk ends); the bytes after the last point wait. The 149×227
/// rgba16 photo stores 227 × 1 193 = 270 811 filtered bytes, so its granule is 256.
final class ImageDataHandOverTests: XCTestCase {
    private static let photo = "corpus/png/extras/rgba16_photo.png"
    private static let granule = 256

    /// File offsets of the photo's IDAT data: (first byte, end).
    private func imageDataRanges(_ bytes: [UInt8]) -> [Range<Int>] {
        PNGFileEditor(bytes).chunks.filter { $0.type == "IDAT" }.map { $0.dataOffset..<($0.dataOffset + $0.length) }
    }

    private struct Snapshot: Equatable {
        let completedRows: Int
        let pixels: [UInt8]?
    }

    private func snapshot(_ pieces: [ArraySlice<UInt8>]) throws -> Snapshot {
        let decoder = PNGDecoder()
        for piece in pieces { try decoder.feed(piece) }
        return Snapshot(completedRows: decoder.status.progress?.completedRows ?? -1, pixels: decoder.currentImage()?.pixels)
    }

    func testWhatIsDecodedAfterAPrefixDependsOnlyOnItsLength() throws {
        let bytes = try Fixtures.bytes(Self.photo)
        let data = try XCTUnwrap(imageDataRanges(bytes).first)
        for cut in [data.lowerBound + 1, data.lowerBound + 5_000, 60_000 * 2 + 255, 150_016, data.upperBound - 1, data.upperBound] {
            let prefix = Array(bytes[..<cut])
            let whole = try snapshot([prefix[...]])
            XCTAssertEqual(try snapshot(Chunking.fixed(prefix, size: 7)), whole, "cut at \(cut), 7-byte pieces")
            XCTAssertEqual(try snapshot(Chunking.random(prefix, seed: UInt64(cut), maxSize: 600)), whole, "cut at \(cut), random pieces")
            XCTAssertEqual(try snapshot(Chunking.fixed(prefix, size: 1000)), whole, "cut at \(cut), 1000-byte pieces")
            if cut < 20_000 { XCTAssertEqual(try snapshot(Chunking.fixed(prefix, size: 1)), whole, "cut at \(cut), 1-byte pieces") }
        }
    }

    func testRowsArriveOnlyAtHandOverPoints() throws {
        let bytes = try Fixtures.bytes(Self.photo)
        let ends = Set(imageDataRanges(bytes).map(\.upperBound))
        let decoder = PNGDecoder()
        var rows = 0, changes = 0
        for (index, piece) in Chunking.fixed(bytes, size: 1).enumerated() {
            try decoder.feed(piece)
            let now = decoder.status.progress?.completedRows ?? 0
            guard now != rows else { continue }
            let fed = index + 1
            XCTAssertTrue(fed % Self.granule == 0 || ends.contains(fed), "rows \(rows) → \(now) after \(fed) bytes, not a hand-over point")
            rows = now
            changes += 1
        }
        _ = try decoder.finish()
        // Each row takes about 1 060 compressed bytes, so every row completes at its own point.
        XCTAssertEqual(changes, 227)
        XCTAssertEqual(rows, 227)
    }

    func testFinishHandsOverTheBytesThatWaitInAFileCutShort() throws {
        let bytes = try Fixtures.bytes(Self.photo)
        let final = try PNGTestSupport.decode(bytes)
        let data = try XCTUnwrap(imageDataRanges(bytes).first)
        // The first cut 255 bytes past a hand-over point whose waiting bytes complete a row.
        var found = false
        var point = (data.lowerBound / Self.granule + 1) * Self.granule
        while point + Self.granule < data.upperBound, !found {
            let cut = point + Self.granule - 1
            defer { point += Self.granule }
            let decoder = PNGDecoder()
            for piece in Chunking.fixed(Array(bytes[..<cut]), size: 3) { try decoder.feed(piece) }
            let rowsBefore = try XCTUnwrap(decoder.status.progress?.completedRows)
            XCTAssertThrowsError(try decoder.finish()) { error in
                XCTAssertEqual((error as? ImageDecodingError)?.kind, .truncated)
                XCTAssertEqual((error as? ImageDecodingError)?.offset, cut)
            }
            let rowsAfter = try XCTUnwrap(decoder.status.progress?.completedRows)
            guard rowsAfter > rowsBefore else { continue }
            found = true
            let partial = try XCTUnwrap(decoder.currentImage())
            let rowBytes = final.bytesPerRow
            XCTAssertEqual(partial.pixels[..<(rowsAfter * rowBytes)], final.pixels[..<(rowsAfter * rowBytes)])
            XCTAssertTrue(partial.pixels[(rowsAfter * rowBytes)...].allSatisfy { $0 == 0 })
        }
        XCTAssertTrue(found, "some cut leaves a row in the waiting bytes")
    }
}
