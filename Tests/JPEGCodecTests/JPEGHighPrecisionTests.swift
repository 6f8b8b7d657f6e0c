import XCTest
import ImageCore
import JPEGCodec
import TestSupport

/// 12-bit and lossless JPEGs decode to libjpeg-turbo 3's pictures (TestImages/jpeg-hibit) for
/// every chunking, at every 12-bit scale, and when cut short or damaged.
final class JPEGHighPrecisionTests: XCTestCase {
    func testEveryFileMatchesLibjpegTurbo3ForEveryChunking() throws {
        let references = try HighPrecisionReferences.load()
        XCTAssertEqual(references.intactFiles.count, 29)
        var failures: [String] = []
        for (index, name) in references.intactFiles.enumerated() {
            guard let reference = references.files[name] else { continue }
            let bytes = try HighPrecisionReferences.bytes(name)
            for (chunking, pieces) in JPEGReferenceChecks.chunkings(bytes, seed: UInt64(index) &+ 0x1055) {
                do {
                    let image = try JPEGCorpus.decode(pieces)
                    if !HighPrecisionReferences.matches(image, reference) { failures.append("\(name) \(chunking): pixels differ") }
                } catch {
                    failures.append("\(name) \(chunking): \(error)")
                }
            }
        }
        XCTAssertEqual(failures, [])
    }

    func testFormatsFollowThePrecision() throws {
        let expected: [String: PixelFormat] = [
            "twelve_420.jpg": .rgb16, "twelve_gray.jpg": .gray16, "twelve_progressive_gray.jpg": .gray16,
            "lossless_2bit_gray_p1.jpg": .gray8, "lossless_8bit_rgb_p4.jpg": .rgb8, "lossless_9bit_rgb_p5.jpg": .rgb16,
            "lossless_16bit_gray_p7.jpg": .gray16,
        ]
        for (name, format) in expected {
            let decoder = JPEGDecoder()
            let image = try decoder.decode(try HighPrecisionReferences.bytes(name))
            XCTAssertEqual(image.format, format, name)
            XCTAssertEqual(decoder.header?.pixelFormat, format, name)
        }
        XCTAssertEqual(try JPEGDecoder().decode(try HighPrecisionReferences.bytes("lossless_6bit_1x1.jpg")).pixels.count, 1)
    }

    func testTwelveBitScaledDecodesMatchLibjpegTurbo3() throws {
        let references = try HighPrecisionReferences.load()
        XCTAssertEqual(references.scaled.count, 27)
        var failures: [String] = []
        for reference in references.scaled {
            guard let scale = ScaleFactor(rawValue: reference.scale) else { continue }
            let bytes = try HighPrecisionReferences.bytes(reference.path)
            let image = try JPEGCorpus.decode(Chunking.fixed(bytes, size: 1000), options: DecodingOptions(scale: scale))
            if image.width != reference.width || image.height != reference.height || Digest.sha256(image.pixels) != reference.sha256 {
                failures.append("\(reference.path) 1/\(reference.scale): \(image.width)×\(image.height) differs")
            }
        }
        XCTAssertEqual(failures, [])
    }

    func testLosslessImagesAreNotScaled() throws {
        let image = try JPEGDecoder(options: DecodingOptions(scale: .quarter))
            .decode(try HighPrecisionReferences.bytes("lossless_8bit_rgb_p4.jpg"))
        let reference = try XCTUnwrap(try HighPrecisionReferences.load().files["lossless_8bit_rgb_p4.jpg"])
        XCTAssertTrue(HighPrecisionReferences.matches(image, reference))
    }

    func testTruncatedFilesThrowTruncatedAndShowLibjpegsPicture() throws {
        let references = try HighPrecisionReferences.load()
        let names = references.files.keys.filter { $0.contains("truncated") }.sorted()
        XCTAssertEqual(names.count, 3)
        for name in names {
            let bytes = try HighPrecisionReferences.bytes(name)
            for (chunking, pieces) in [("whole", [bytes[...]]), ("7-byte", Chunking.fixed(bytes, size: 7))] {
                let decoder = JPEGDecoder()
                for piece in pieces { try decoder.feed(piece) }
                XCTAssertGreaterThan(decoder.status.progress?.completedRows ?? 0, 0, "\(name) \(chunking)")
                XCTAssertThrowsError(try decoder.finish(), "\(name) \(chunking)") {
                    XCTAssertEqual(($0 as? ImageDecodingError)?.kind, .truncated, "\(name) \(chunking)")
                }
                // Like libjpeg, the missing data decodes as zeros (mid-gray) after the rows that arrived.
                let image = try XCTUnwrap(decoder.currentImage())
                XCTAssertTrue(HighPrecisionReferences.matches(image, try XCTUnwrap(references.files[name])), "\(name) \(chunking)")
            }
        }
    }

    func testDamagedLosslessDataDecodesLikeLibjpeg() throws {
        let references = try HighPrecisionReferences.load()
        // The flipped byte breaks a code in one file; in the other it still reads as valid codes
        // but the scan then ends early, leaving bytes before EOI (libjpeg: "extraneous bytes").
        let damagesPixels = ["lossless_16bit_gray_pt3_restarts_damaged.jpg": true, "lossless_12bit_rgb_p1_damaged.jpg": false]
        for (name, throwsAtFinish) in damagesPixels {
            let decoder = JPEGDecoder()
            try decoder.feed(try HighPrecisionReferences.bytes(name))
            XCTAssertEqual(decoder.warnings.map(\.kind), [.invalidData], name)
            if throwsAtFinish {
                XCTAssertThrowsError(try decoder.finish(), name) { XCTAssertEqual(($0 as? ImageDecodingError)?.kind, .invalidData, name) }
            } else {
                XCTAssertNoThrow(try decoder.finish(), name)
            }
            let image = try XCTUnwrap(decoder.currentImage())
            XCTAssertTrue(HighPrecisionReferences.matches(image, try XCTUnwrap(references.files[name])), name)
        }
    }

    /// A picture taken after every piece equals what a fresh decoder fed the same bytes at once shows.
    func testPreviewsAfterEveryPieceEqualFreshDecodesOfThatPrefix() throws {
        for name in ["twelve_progressive.jpg", "twelve_420.jpg", "lossless_12bit_subsampled_restarts.jpg",
                     "lossless_8bit_three_scans.jpg"] {
            let bytes = try HighPrecisionReferences.bytes(name)
            let incremental = JPEGDecoder()
            var fed = 0, generations: Set<Int> = []
            for piece in Chunking.fixed(bytes, size: 613) {
                try incremental.feed(piece)
                fed += piece.count
                guard let preview = incremental.currentImage() else { continue }
                generations.insert(incremental.status.progress?.previewGeneration ?? -1)
                let fresh = JPEGDecoder()
                try fresh.feed(bytes[..<fed])
                XCTAssertEqual(Digest.sha256(preview.pixels), fresh.currentImage().map { Digest.sha256($0.pixels) },
                               "\(name) after \(fed) bytes")
            }
            XCTAssertGreaterThan(generations.count, 2, name)
        }
    }

    func testMutatedFilesNeverTrapAndKeepAWholePicture() throws {
        let names = try HighPrecisionReferences.load().intactFiles
        let outcome = try JPEGReferenceChecks.mutationSweep(names, perFile: 30, seed: 0x12B17, load: HighPrecisionReferences.bytes)
        XCTAssertEqual(outcome.problems, [])
        XCTAssertEqual(outcome.successes + outcome.errors.values.reduce(0, +), names.count * 30)
        XCTAssertGreaterThan(outcome.errors[.truncated] ?? 0, 0)
        XCTAssertGreaterThan(outcome.errors[.invalidData] ?? 0, 0)
    }

    func testHierarchicalAndBadLosslessParametersAreRejected() throws {
        var bytes = try HighPrecisionReferences.bytes("twelve_gray.jpg")
        let sof = try XCTUnwrap(bytes.indices.first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC1 })
        for marker: UInt8 in [0xC5, 0xC6, 0xC7] {
            bytes[sof + 1] = marker
            XCTAssertThrowsError(try JPEGDecoder().decode(bytes)) { error in
                XCTAssertEqual((error as? ImageDecodingError)?.kind, .unsupported)
                XCTAssertTrue((error as? ImageDecodingError)?.message.contains("hierarchical") == true)
            }
        }
        // Four-component lossless (libjpeg-turbo would give CMYK): no output format for it here.
        XCTAssertThrowsError(try JPEGDecoder().decode(try HighPrecisionReferences.bytes("lossless_8bit_cmyk_unsupported.jpg"))) {
            XCTAssertEqual(($0 as? ImageDecodingError)?.kind, .unsupported)
        }
        // Ss=1 Se=0 Ah=0 Al=12 at precision 8: libjpeg-turbo 3 rejects the scan ("Invalid progressive/lossless parameters").
        let invalid = try JPEGCorpus.bytes("jpeg/malformed/jd_invalid-prediction-shift.jpg")
        XCTAssertThrowsError(try JPEGDecoder().decode(invalid)) { XCTAssertEqual(($0 as? ImageDecodingError)?.kind, .invalidData) }
    }
}
