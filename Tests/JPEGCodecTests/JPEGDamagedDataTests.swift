import XCTest
import ImageCore
import JPEGCodec
import TestSupport

/// Truncated, corrupt and unsupported input: the right error kind, never a trap, and the same
/// picture libjpeg makes of damaged data.
final class JPEGDamagedDataTests: XCTestCase {
    func testDamagedFilesDecodeToTheSamePictureAsDjpegAndReportTheDamage() throws {
        let references = try ExtraJPEGReferences.load().damaged
        XCTAssertEqual(references.count, 22)
        for reference in references {
            let bytes = reference.apply(to: try JPEGCorpus.bytes(reference.path))
            for (name, pieces) in [("whole", [bytes[...]]), ("97-byte", Chunking.fixed(bytes, size: 97))] {
                let decoder = JPEGDecoder()
                var thrown: ImageDecodingError?
                do {
                    for piece in pieces { try decoder.feed(piece) }
                    _ = try decoder.finish()
                } catch {
                    thrown = error as? ImageDecodingError
                }
                let label = "\(reference.path), \(reference.description), \(name)"
                let expectedKind: ImageDecodingError.Kind = reference.edit.truncate != nil ? .truncated : .invalidData
                XCTAssertEqual(thrown?.kind, expectedKind, label)
                let image = try XCTUnwrap(decoder.currentImage(), label)
                XCTAssertEqual(image.width, reference.width, label)
                XCTAssertEqual(Digest.sha256(image.pixels), reference.sha256, label)
            }
        }
    }

    func testCorpusTruncatedBaselineFilesGiveLibjpegsPartialPicture() throws {
        for path in ["jpeg/malformed/testorig_baseline_truncated_60pct.jpg", "jpeg/malformed/synth_baseline_truncated_60pct.jpg"] {
            let entry = try JPEGCorpus.entry(path)
            let decoder = JPEGDecoder()
            try decoder.feed(try JPEGCorpus.bytes(path))
            XCTAssertThrowsError(try decoder.finish()) { XCTAssertEqual(($0 as? ImageDecodingError)?.kind, .truncated) }
            XCTAssertEqual(Digest.sha256(decoder.currentImage()?.pixels ?? []), entry.reference?.sha256, path)
        }
    }

    func testEveryPrefixThrowsTruncatedAndKeepsAWholePicture() throws {
        for path in ["jpeg/generated/testorig_restart_3B.jpg", "jpeg/generated/synth_nonstd_2x2_2x1_1x1.jpg",
                     "jpeg/generated/synth_baseline_noninterleaved.jpg", "jpeg/generated/odd_7x9_420.jpg"] {
            let bytes = try JPEGCorpus.bytes(path)
            let full = try JPEGDecoder().decode(bytes)
            var cut = 1
            while cut < bytes.count - 1 {
                let decoder = JPEGDecoder()
                try decoder.feed(bytes[..<cut])
                XCTAssertThrowsError(try decoder.finish(), "\(path) cut at \(cut)") { error in
                    XCTAssertEqual((error as? ImageDecodingError)?.kind, .truncated, "\(path) cut at \(cut)")
                }
                if let image = decoder.currentImage() {
                    XCTAssertEqual(image.width, full.width)
                    XCTAssertEqual(image.pixels.count, full.pixels.count, "\(path) cut at \(cut)")
                }
                // Errors are sticky.
                XCTAssertThrowsError(try decoder.feed([0xFF]))
                cut += max(bytes.count / 60, 1)
            }
        }
    }

    func testMissingEndOfImageMarkerIsTruncationButThePictureIsComplete() throws {
        let bytes = try JPEGCorpus.bytes("jpeg/libjpeg-turbo/testorig.jpg")
        let full = try JPEGDecoder().decode(bytes)
        let decoder = JPEGDecoder()
        try decoder.feed(bytes.dropLast(2))
        XCTAssertThrowsError(try decoder.finish()) { XCTAssertEqual(($0 as? ImageDecodingError)?.kind, .truncated) }
        XCTAssertEqual(decoder.currentImage(), full)
    }

    func testUnsupportedFramesAnswerUnsupported() throws {
        // Every SOF type but these is decoded now: hierarchical frames, and 12-bit arithmetic
        // coding, made by rewriting a real file's frame header.
        func rewritten(_ path: String, from marker: UInt8, to newMarker: UInt8, precision: UInt8? = nil) throws -> [UInt8] {
            var bytes = try JPEGCorpus.bytes(path)
            var index = 2
            while index + 4 <= bytes.count, bytes[index + 1] != marker {
                index += 2 + (Int(bytes[index + 2]) << 8 | Int(bytes[index + 3]))
            }
            guard index + 4 < bytes.count else {
                XCTFail("\(path) has no marker \(marker)")
                return bytes
            }
            bytes[index + 1] = newMarker
            if let precision { bytes[index + 4] = precision }
            return bytes
        }
        let cases: [(String, [UInt8], String)] = [
            ("SOF5", try rewritten("jpeg/libjpeg-turbo/testorig.jpg", from: 0xC0, to: 0xC5), "hierarchical"),
            ("SOF7", try rewritten("jpeg/libjpeg-turbo/testorig.jpg", from: 0xC0, to: 0xC7), "hierarchical"),
            ("12-bit SOF9", try rewritten("jpeg/generated/synth_arithmetic.jpg", from: 0xC9, to: 0xC9, precision: 12),
             "12-bit arithmetic"),
        ]
        for (path, bytes, word) in cases {
            XCTAssertThrowsError(try JPEGDecoder().decode(bytes), path) { error in
                let decodingError = error as? ImageDecodingError
                XCTAssertEqual(decodingError?.kind, .unsupported, path)
                XCTAssertTrue(decodingError?.message.contains(word) == true, "\(path): \(String(describing: decodingError))")
                XCTAssertNotNil(decodingError?.offset)
            }
        }
    }

    func testHeightDefinedLaterByDNLIsUnsupported() throws {
        var bytes = try JPEGCorpus.bytes("jpeg/generated/odd_2x2_444.jpg")
        guard let sof = sofRange(bytes) else { return XCTFail("no SOF") }
        bytes[sof.lowerBound + 5] = 0   // Y, the number of lines
        bytes[sof.lowerBound + 6] = 0
        XCTAssertThrowsError(try JPEGDecoder().decode(bytes)) { error in
            XCTAssertEqual((error as? ImageDecodingError)?.kind, .unsupported)
            XCTAssertTrue((error as? ImageDecodingError)?.message.contains("DNL") == true)
        }
    }

    func testNonJPEGInputIsAnInvalidSignature() {
        XCTAssertThrowsError(try JPEGDecoder().decode(Array("\u{89}PNG\r\n".utf8))) { error in
            XCTAssertEqual((error as? ImageDecodingError)?.kind, .invalidSignature)
            XCTAssertEqual((error as? ImageDecodingError)?.offset, 0)
        }
    }

    func testMalformedCorpusFilesNeverTrapOrReportInternalErrors() throws {
        let entries = try CorpusManifest.load().files.filter { $0.isJPEG && $0.expect != "decode" }
        XCTAssertGreaterThan(entries.count, 10)
        for entry in entries {
            let bytes = try CorpusManifest.bytes(of: entry)
            for pieces in [[bytes[...]], Chunking.fixed(bytes, size: 513)] {
                do {
                    _ = try JPEGCorpus.decode(pieces)
                } catch let error as ImageDecodingError {
                    XCTAssertNotEqual(error.kind, .internal, "\(entry.path): \(error)")
                }
            }
        }
    }

    func testDuplicateFrameHeaderIsInvalidData() throws {
        var bytes = try JPEGCorpus.bytes("jpeg/generated/odd_2x2_444.jpg")
        guard let sof = sofRange(bytes) else { return XCTFail("no SOF") }
        bytes.insert(contentsOf: bytes[sof], at: sof.upperBound)
        XCTAssertThrowsError(try JPEGDecoder().decode(bytes)) { error in
            XCTAssertEqual((error as? ImageDecodingError)?.kind, .invalidData)
            XCTAssertEqual((error as? ImageDecodingError)?.offset, sof.upperBound)
        }
    }

    func testSeededMutationsNeverTrap() throws {
        // Bit flips, byte overwrites, cuts and length-field edits on small files of several layouts.
        let paths = ["jpeg/generated/odd_17x33_420.jpg", "jpeg/generated/odd_16x8_444.jpg", "jpeg/generated/synth_restart_3B.jpg",
                     "jpeg/generated/odd_33x17_420.jpg", "jpeg/generated/testorig_nonstd_3x2.jpg",
                     "jpeg/generated/synth_baseline_noninterleaved.jpg", "jpeg/generated/testorig_ycck_adobe.jpg"]
        let outcome = try JPEGReferenceChecks.mutationSweep(paths, perFile: 120, seed: 0xBADC0FFEE)
        XCTAssertEqual(outcome.problems, [])
        // The sweep must exercise both clean decodes and each main error class.
        XCTAssertGreaterThan(outcome.successes, 0)
        XCTAssertGreaterThan(outcome.errors[.truncated] ?? 0, 0)
        XCTAssertGreaterThan(outcome.errors[.invalidData] ?? 0, 0)
    }

    private func sofRange(_ bytes: [UInt8]) -> Range<Int>? {
        var index = 2
        while index + 4 <= bytes.count {
            let marker = bytes[index + 1]
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            if marker == 0xC0 { return index..<(index + 2 + length) }
            index += 2 + length
        }
        return nil
    }
}
