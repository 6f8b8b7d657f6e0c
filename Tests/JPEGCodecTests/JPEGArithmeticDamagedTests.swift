import XCTest
import ImageCore
import JPEGCodec
import TestSupport

/// Damaged, truncated and unsupported arithmetic-coded input: djpeg's picture where it has one,
/// the right error kind and offsets, never a trap, the same outcome for every chunking.
final class JPEGArithmeticDamagedTests: XCTestCase {
    func testDamagedFilesDecodeLikeDjpegForEveryChunking() throws {
        let damaged = try JPEGArithmeticFixtures.load().damaged
        XCTAssertEqual(damaged.count, 44)
        var failures: [String] = []
        for (index, variant) in damaged.enumerated() {
            let bytes = try variant.bytes()
            let name = "\(variant.path) (\(variant.description))"
            let whole = JPEGArithmeticFixtures.decode([bytes[...]])
            if variant.edit.truncate != nil {
                if whole.error?.kind != .truncated { failures.append("\(name): \(String(describing: whole.error)), expected truncated") }
            } else if variant.djpeg_rc == 0 {
                if whole.error != nil || !whole.warnings.isEmpty { failures.append("\(name): \(String(describing: whole.error)), expected no warning") }
            } else if whole.warnings.isEmpty || (whole.error != nil && whole.error?.kind != .invalidData) {
                // djpeg warned: data that changed pixels makes finish() throw invalidData; extraneous
                // bytes left before the next marker (data the decoder did not need) are only listed.
                failures.append("\(name): \(String(describing: whole.error)) with \(whole.warnings.count) warnings; djpeg warned")
            }
            if let sha256 = variant.sha256, whole.image.map({ Digest.sha256($0.pixels) }) != sha256 { failures.append("\(name): pixels differ from djpeg's") }
            if whole.image?.pixels.count != variant.width * variant.height * 3 && whole.image?.pixels.count != variant.width * variant.height {
                failures.append("\(name): picture not whole")
            }
            for (chunking, pieces) in JPEGArithmeticFixtures.chunkings(bytes, seed: UInt64(index) &+ 0xDA3A).dropFirst()
            where JPEGArithmeticFixtures.decode(pieces) != whole {
                failures.append("\(name): \(chunking) feeding differs from whole")
            }
        }
        XCTAssertEqual(failures, [])
    }

    func testCorruptCodesAreWarningsWithOffsetsAndFinishThrowsTheFirst() throws {
        guard let variant = try JPEGArithmeticFixtures.load().damaged.first(where: {
            $0.path == "files/prog_420.jpg" && $0.description == "bit 5 flipped in scan 2"
        }) else { return XCTFail("variant missing") }
        let bytes = try variant.bytes()
        let decoder = JPEGDecoder()
        try decoder.feed(bytes)
        XCTAssertFalse(decoder.warnings.isEmpty)
        let flipped = try XCTUnwrap(variant.edit.flip?.first)
        for warning in decoder.warnings {
            XCTAssertEqual(warning.kind, .invalidData)
            XCTAssertGreaterThanOrEqual(warning.offset ?? -1, flipped)
            XCTAssertLessThan(warning.offset ?? .max, bytes.count)
        }
        XCTAssertThrowsError(try decoder.finish()) { error in
            XCTAssertEqual(error as? ImageDecodingError, decoder.warnings.first)
        }
        XCTAssertThrowsError(try decoder.finish()) { XCTAssertEqual($0 as? ImageDecodingError, decoder.warnings.first) }
    }

    func testHierarchicalAndLosslessArithmeticFramesAreUnsupported() throws {
        let bytes = try Fixtures.bytes("jpeg-arith/files/seq_gray.jpg")
        let sof = try XCTUnwrap((2..<(bytes.count - 1)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC9 })
        for (marker, word) in [(0xC5, "hierarchical"), (0xC6, "hierarchical"), (0xC7, "hierarchical"),
                               (0xCD, "hierarchical"), (0xCE, "hierarchical"), (0xCF, "hierarchical"), (0xCB, "lossless")] {
            var edited = bytes
            edited[sof + 1] = UInt8(marker)
            XCTAssertThrowsError(try JPEGDecoder().decode(edited)) { error in
                let decodingError = error as? ImageDecodingError
                XCTAssertEqual(decodingError?.kind, .unsupported)
                XCTAssertEqual(decodingError?.offset, sof)
                XCTAssertTrue(decodingError?.message.contains(word) == true, String(describing: decodingError))
            }
        }
    }

    func testMalformedConditioningSegmentsAreInvalidDataAtTheBadByte() throws {
        let bytes = try Fixtures.bytes("jpeg-arith/files/seq_gray.jpg")
        let sos = try XCTUnwrap((2..<(bytes.count - 1)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA })
        // (segment, offset of the bad byte within it)
        let cases: [([UInt8], Int)] = [
            ([0xFF, 0xCC, 0x00, 0x06, 0x00, 0x10, 0x20, 0x05], 6),   // table class 2
            ([0xFF, 0xCC, 0x00, 0x04, 0x03, 0x12], 5),               // L = 2 above U = 1
            ([0xFF, 0xCC, 0x00, 0x05, 0x00, 0x10, 0x00], 4),         // not whole pairs
        ]
        for (segment, badByte) in cases {
            var edited = bytes
            edited.insert(contentsOf: segment, at: sos)
            XCTAssertThrowsError(try JPEGDecoder().decode(edited)) { error in
                XCTAssertEqual((error as? ImageDecodingError)?.kind, .invalidData)
                XCTAssertEqual((error as? ImageDecodingError)?.offset, sos + badByte)
            }
        }
    }

    func testEmptyScanDataDecodesLikeDjpegInsteadOfFailing() throws {
        // An arithmetic scan may end early (the encoder drops trailing zero bytes): a scan whose
        // data is cut to nothing is no error in itself, the decisions read zeros.
        let fixture = try XCTUnwrap(try JPEGArithmeticFixtures.load().damaged.first {
            $0.path == "files/seq_444_q95.jpg" && $0.description == "cut right after the scan header"
        })
        var bytes = try fixture.bytes()
        bytes += [0xFF, 0xD9]
        let decoder = JPEGDecoder()
        try decoder.feed(bytes)
        let image = try decoder.finish()
        XCTAssertEqual(Digest.sha256(image.pixels), fixture.sha256)
    }

    func testSeededMutationsNeverTrap() throws {
        let paths = ["jpeg/generated/testorig_arithmetic.jpg", "jpeg/generated/testorig_arithmetic_progressive.jpg",
                     "jpeg/generated/synth_arithmetic.jpg", "jpeg/generated/synth_arithmetic_progressive.jpg",
                     "jpeg/libjpeg-turbo/testimgari.jpg"]
        let outcome = try JPEGReferenceChecks.mutationSweep(paths, perFile: 60, seed: 0xA417)
        XCTAssertEqual(outcome.problems, [])
        XCTAssertGreaterThan(outcome.successes, 0)
        XCTAssertGreaterThan(outcome.errors[.truncated] ?? 0, 0)
        XCTAssertGreaterThan(outcome.errors[.invalidData] ?? 0, 0)
    }
}
