import ImageCore
@testable import PNGCodec
import TestSupport
import XCTest

/// Outside IDAT data the parser's next step needs a known number of bytes (the rest of a chunk
/// header, of a CRC, of a chunk read whole such as a 28 KB iCCP profile); bytes that cannot
/// complete them wait beside the decoder (up to 256 at a time) instead of each going through the
/// parser, and reach it with the byte that completes the step. Nothing a caller sees may depend
/// on it: the same picture, metadata, errors and offsets as the file fed whole.
final class ParserHeldBytesTests: XCTestCase {
    /// A chart with a 28 859-byte iCCP chunk (a LUT profile), then one IDAT chunk.
    private static let chart = "color/chart-widergb-lut-alpha.png"

    private struct Outcome: Equatable {
        var pixels: [UInt8]?
        var iccProfile: [UInt8]?
        var errorKind: ImageDecodingError.Kind?
        var errorOffset: Int?
        var examined: Int
    }

    private func outcome(_ pieces: [ArraySlice<UInt8>]) -> Outcome {
        let decoder = PNGDecoder()
        do {
            for piece in pieces { try decoder.feed(piece) }
            let image = try decoder.finish()
            return Outcome(pixels: image.pixels, iccProfile: decoder.metadata.iccProfile, examined: decoder.inputBytesExamined)
        } catch let error as ImageDecodingError {
            return Outcome(iccProfile: decoder.metadata.iccProfile, errorKind: error.kind, errorOffset: error.offset,
                           examined: decoder.inputBytesExamined)
        } catch {
            XCTFail("unexpected error \(error)")
            return Outcome(examined: -1)
        }
    }

    func testAChunkReadWholeReachesTheParserOncePer256Bytes() throws {
        let bytes = try Fixtures.bytes(Self.chart)
        let profile = try XCTUnwrap(PNGFileEditor(bytes).chunks.first { $0.type == "iCCP" })
        XCTAssertGreaterThan(profile.length, 20_000)
        let chunkEnds = Set(PNGFileEditor(bytes).chunks.map { $0.dataOffset + $0.length + 4 })
        let decoder = PNGDecoder()
        // Bytes of the chunk (header to CRC) after which nothing waits: those that went to the parser.
        var reachedParser = 0
        for (index, byte) in bytes.enumerated() {
            let status = try decoder.feed([byte])
            if (profile.offset..<(profile.dataOffset + profile.length + 4)).contains(index), decoder.handOver.waitingCount == 0 {
                reachedParser += 1
            }
            if chunkEnds.contains(index + 1) {
                // The byte that ends a chunk gets it parsed, as the prefix fed whole does.
                // (previewGeneration counts decoding steps, which pieces change: not compared.)
                let prefix = PNGDecoder()
                let prefixStatus = try prefix.feed(Array(bytes[...index]))
                XCTAssertEqual(status.progress?.completedRows, prefixStatus.progress?.completedRows, "after \(index + 1) bytes")
                XCTAssertEqual(status.isComplete, prefixStatus.isComplete, "after \(index + 1) bytes")
                XCTAssertEqual(decoder.header, prefix.header, "after \(index + 1) bytes")
                XCTAssertEqual(decoder.metadata.iccProfile, prefix.metadata.iccProfile, "after \(index + 1) bytes")
            }
        }
        let image = try decoder.finish()
        let whole = outcome([bytes[...]])
        XCTAssertEqual(image.pixels, whole.pixels)
        XCTAssertEqual(decoder.metadata.iccProfile, whole.iccProfile)
        XCTAssertNotNil(whole.iccProfile)
        XCTAssertEqual(decoder.inputBytesExamined, whole.examined)
        // One byte per 256 of the chunk read whole, plus its header's and the next header's few.
        XCTAssertLessThanOrEqual(reachedParser, (profile.length + 4) / 255 + 4)
        XCTAssertGreaterThanOrEqual(reachedParser, (profile.length + 4) / 256)
    }

    func testFilesCutInsideHeadersChunksAndCRCsFailAsWhenFedWhole() throws {
        let bytes = try Fixtures.bytes(Self.chart)
        let chunks = PNGFileEditor(bytes).chunks
        var cuts = [3, 8, 9, 15, 16, 30, 33, 37, 40, 41]
        for chunk in chunks {
            cuts += [chunk.offset + 2, chunk.dataOffset + 1, chunk.dataOffset + chunk.length / 2,
                     chunk.dataOffset + chunk.length + 1, chunk.dataOffset + chunk.length + 3]
        }
        for cut in cuts where cut < bytes.count {
            let prefix = Array(bytes[..<cut])
            let whole = outcome([prefix[...]])
            XCTAssertEqual(whole.errorKind, .truncated, "cut at \(cut)")
            XCTAssertEqual(whole.errorOffset, cut, "cut at \(cut)")
            XCTAssertEqual(outcome(Chunking.fixed(prefix, size: 1)), whole, "cut at \(cut), 1-byte pieces")
            XCTAssertEqual(outcome(Chunking.fixed(prefix, size: 3)), whole, "cut at \(cut), 3-byte pieces")
        }
    }

    func testDamageFoundByTheByteThatCompletesAChunkIsReportedAsWhenFedWhole() throws {
        let bytes = try Fixtures.bytes(Self.chart)
        let chunks = PNGFileEditor(bytes).chunks
        let header = try XCTUnwrap(chunks.first { $0.type == "IHDR" })
        let profile = try XCTUnwrap(chunks.first { $0.type == "iCCP" })
        // A wrong CRC on the profile (ancillary: dropped) and on IHDR (critical: an error at its CRC).
        for (name, position) in [("iCCP CRC", profile.dataOffset + profile.length + 3), ("IHDR CRC", header.dataOffset + header.length)] {
            var damaged = bytes
            damaged[position] ^= 0x5A
            let whole = outcome([damaged[...]])
            XCTAssertEqual(outcome(Chunking.fixed(damaged, size: 1)), whole, name)
            XCTAssertEqual(outcome(Chunking.random(damaged, seed: UInt64(position), maxSize: 300)), whole, name)
            if name == "iCCP CRC" {
                XCTAssertNil(whole.iccProfile)
                XCTAssertNotNil(whole.pixels)
            } else {
                XCTAssertEqual(whole.errorKind, .checksumMismatch)
            }
        }
    }

    func testGranuleFollowsRowsForSmallImagesAndSizeForLargeOnes() {
        // 149×227 rgba16: 1 193-byte rows, 270 811 bytes.
        XCTAssertEqual(ImageDataHandOver.granule(filteredBytes: 270_811, rowBytes: 1_193), 256)
        // 149×227 rgb8: 448-byte rows, 101 696 bytes (was 64 from the size alone).
        XCTAssertEqual(ImageDataHandOver.granule(filteredBytes: 101_696, rowBytes: 448), 128)
        // 32×32 rgb8: 97-byte rows; interlaced, pass 1's rows take 13.
        XCTAssertEqual(ImageDataHandOver.granule(filteredBytes: 3_104, rowBytes: 97), 32)
        XCTAssertEqual(ImageDataHandOver.granule(filteredBytes: 3_104, rowBytes: 13), 4)
        // 1×10 000 gray: 2-byte rows, 20 000 bytes.
        XCTAssertEqual(ImageDataHandOver.granule(filteredBytes: 20_000, rowBytes: 2), 16)
        // 1×1: one byte at a time.
        XCTAssertEqual(ImageDataHandOver.granule(filteredBytes: 2, rowBytes: 2), 1)
    }
}
