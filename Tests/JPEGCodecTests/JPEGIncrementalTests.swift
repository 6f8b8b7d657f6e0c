import XCTest
import ImageCore
import JPEGCodec
import TestSupport

/// Incremental behaviour: early header, rows as they arrive, O(n) work, status and preview generations.
final class JPEGIncrementalTests: XCTestCase {
    func testFeedingOneByteAtATimeExaminesEachByteABoundedNumberOfTimes() throws {
        for path in ["jpeg/generated/synth_baseline_q95_444.jpg", "jpeg/generated/testorig_restart_1row.jpg",
                     "jpeg/generated/synth_baseline_noninterleaved.jpg"] {
            let bytes = try JPEGCorpus.bytes(path)
            let decoder = JPEGDecoder()
            for byte in bytes { try decoder.feed([byte]) }
            _ = try decoder.finish()
            let whole = JPEGDecoder()
            _ = try whole.decode(bytes)
            // Each byte is read by the parser or bit reader once, and at most once more by the
            // look-ahead, which finds the end of the entropy-coded segment and counts 0xFF fill
            // bytes (eight bytes at a time), fed in pieces or whole.
            for (decoded, label) in [(decoder, "1-byte"), (whole, "whole")] {
                XCTAssertLessThanOrEqual(decoded.inputBytesExamined, 2 * bytes.count, "\(path), \(label)")
                XCTAssertGreaterThanOrEqual(decoded.inputBytesExamined, bytes.count - 2, "\(path), \(label)")
            }
        }
    }

    func testOneByteFeedingShowsWhatAFreshDecodeOfTheSamePrefixShows() throws {
        // Pieces that cannot complete an MCU are only buffered: the status and picture after each
        // byte must still be what running the decoder on that prefix gives.
        for path in ["jpeg/libjpeg-turbo/testorig.jpg", "jpeg/generated/testorig_restart_1row.jpg"] {
            let bytes = try JPEGCorpus.bytes(path)
            let decoder = JPEGDecoder()
            var compared = 0
            for (index, byte) in bytes.enumerated() {
                let status = try decoder.feed([byte])
                guard index % 61 == 0 || index == bytes.count - 1 else { continue }
                let fresh = JPEGDecoder()
                // (The preview generation counts the pictures a decoder's own history went through.)
                let freshProgress = try fresh.feed(bytes[...index]).progress
                XCTAssertEqual(freshProgress?.completedRows, status.progress?.completedRows, "\(path) after \(index + 1) bytes")
                XCTAssertEqual(fresh.currentImage(), decoder.currentImage(), "\(path) after \(index + 1) bytes")
                compared += 1
            }
            XCTAssertGreaterThan(compared, 90)
        }
    }

    func testRowsAppearAsDataArrivesAndMatchTheFinalImage() throws {
        let bytes = try JPEGCorpus.bytes("jpeg/generated/synth_baseline_q95_444.jpg")
        let final = try JPEGDecoder().decode(bytes)
        let decoder = JPEGDecoder()
        XCTAssertEqual(decoder.status, .awaitingHeader)
        XCTAssertNil(decoder.currentImage())
        var lastRows = 0, lastGeneration = 0, sawPartial = false
        for piece in Chunking.fixed(bytes, size: 2000) {
            let status = try decoder.feed(piece)
            guard let progress = status.progress else { continue }
            XCTAssertGreaterThanOrEqual(progress.completedRows, lastRows)
            XCTAssertGreaterThanOrEqual(progress.previewGeneration, lastGeneration)
            if progress.completedRows > lastRows { XCTAssertGreaterThan(progress.previewGeneration, lastGeneration) }
            lastRows = progress.completedRows
            lastGeneration = progress.previewGeneration
            let image = try XCTUnwrap(decoder.currentImage())
            XCTAssertEqual(image.pixels.count, final.pixels.count)
            // Finished rows already hold their final pixels; the rest are blank.
            let finishedBytes = progress.completedRows * final.bytesPerRow
            XCTAssertEqual(image.pixels[..<finishedBytes], final.pixels[..<finishedBytes])
            XCTAssertTrue(image.pixels[finishedBytes...].allSatisfy { $0 == 0 })
            if progress.completedRows > 0 && progress.completedRows < final.height { sawPartial = true }
        }
        XCTAssertTrue(sawPartial)
        XCTAssertEqual(try decoder.finish(), final)
        XCTAssertTrue(decoder.status.isComplete)
        XCTAssertEqual(decoder.status.progress?.completedRows, final.height)
        XCTAssertEqual(decoder.status.progress?.completedScans, 1)
    }

    func testGenerationDoesNotChangeWhenNothingNewIsDecoded() throws {
        let bytes = try JPEGCorpus.bytes("jpeg/generated/synth_baseline_q75_420.jpg")
        let decoder = JPEGDecoder()
        try decoder.feed(bytes[..<4000])
        let generation = decoder.status.previewGeneration
        try decoder.feed([UInt8]())
        XCTAssertEqual(decoder.status.previewGeneration, generation)
    }

    func testHeaderIsAvailableOnceTheFrameHeaderArrives() throws {
        let bytes = try JPEGCorpus.bytes("jpeg/libjpeg-turbo/testorig.jpg")
        let decoder = JPEGDecoder()
        var fed = 0
        while decoder.header == nil && fed < bytes.count {
            try decoder.feed([bytes[fed]])
            fed += 1
        }
        let header = try XCTUnwrap(decoder.header)
        XCTAssertEqual(header.fileFormat, .jpeg)
        XCTAssertEqual(header.width, 227)
        XCTAssertEqual(header.height, 149)
        XCTAssertEqual(header.pixelFormat, .rgb8)
        XCTAssertEqual(header.bitDepth, 8)
        XCTAssertFalse(header.isProgressive)
        XCTAssertLessThan(fed, 700)   // SOF ends long before the entropy-coded data
        XCTAssertEqual(decoder.currentImage()?.pixels.allSatisfy { $0 == 0 }, true)
    }

    func testDataAfterEndOfImageIsIgnored() throws {
        let bytes = try JPEGCorpus.bytes("jpeg/generated/odd_16x8_420.jpg")
        let reference = try JPEGDecoder().decode(bytes)
        let decoder = JPEGDecoder()
        try decoder.feed(bytes + [0x12, 0xFF, 0xD8, 0x00, 0x42])
        XCTAssertEqual(try decoder.finish(), reference)
        XCTAssertTrue(decoder.warnings.isEmpty)
    }

    func testMissingHuffmanTablesFallBackToTheStandardOnes() throws {
        // cjpeg without -optimize writes T.81 K.3 tables; strip them, as Motion-JPEG frames do.
        let bytes = try JPEGCorpus.bytes("jpeg/generated/testorig_baseline_q75_420.jpg")
        var stripped: [UInt8] = [0xFF, 0xD8]
        var index = 2
        while index + 4 <= bytes.count {
            let marker = bytes[index + 1]
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            if marker == 0xDA { stripped += bytes[index...]; break }
            if marker != 0xC4 { stripped += bytes[index..<(index + 2 + length)] }
            index += 2 + length
        }
        XCTAssertLessThan(stripped.count, bytes.count)
        XCTAssertEqual(try JPEGDecoder().decode(stripped), try JPEGDecoder().decode(bytes))
    }
}
