import XCTest
import ImageCore
import JPEGCodec
import TestSupport

/// Progressive JPEG against bad input: scan floods, illegal scan parameters, mutations; and O(n) work.
final class JPEGProgressiveErrorTests: XCTestCase {
    private let path = "jpeg/generated/testorig_progressive_succ_approx.jpg"

    func testScanLimitAnswersLimitExceededAndKeepsEarlierScans() throws {
        let bytes = try JPEGCorpus.bytes(path)
        let markers = JPEGScanBoundaries.markerOffsets(in: bytes)
        var options = DecodingOptions()
        options.limits.maxScans = 3
        let decoder = JPEGDecoder(options: options)
        XCTAssertThrowsError(try decoder.feed(bytes)) { error in
            let decodingError = error as? ImageDecodingError
            XCTAssertEqual(decodingError?.kind, .limitExceeded)
            XCTAssertEqual(decodingError?.offset, markers[3], "the fourth SOS marker")
        }
        XCTAssertEqual(decoder.status.progress?.completedScans, 3)
        let reference = JPEGDecoder()
        try reference.feed(bytes[..<markers[3]])
        XCTAssertEqual(decoder.currentImage(), reference.currentImage())
    }

    func testDefaultScanLimitIsAThousand() {
        XCTAssertEqual(DecodingOptions().limits.maxScans, 1000)
    }

    /// The file with the Ss, Se and Ah/Al bytes of scan `scan` (0-based) replaced.
    private func withScanParameters(_ scan: Int, ss: UInt8, se: UInt8, ahAl: UInt8) throws -> (bytes: [UInt8], sos: Int) {
        var bytes = try JPEGCorpus.bytes(path)
        let sos = JPEGScanBoundaries.markerOffsets(in: bytes)[scan]
        let at = JPEGScanBoundaries.spectralStartOffset(sosOffset: sos, in: bytes)
        bytes[at] = ss
        bytes[at + 1] = se
        bytes[at + 2] = ahAl
        return (bytes, sos)
    }

    func testIllegalScanParametersAreInvalidDataNamingTheRule() throws {
        // Scan 0 is an interleaved DC scan; scan 1 a single-component AC scan.
        let cases: [(scan: Int, ss: UInt8, se: UInt8, ahAl: UInt8, rule: String)] = [
            (0, 0, 5, 0x01, "Se=0"),             // DC scan with a spectral band
            (0, 1, 5, 0x00, "one component"),    // AC band in an interleaved scan
            (1, 6, 5, 0x00, "Ss ≤ Se ≤ 63"),     // band ends before it starts
            (1, 1, 64, 0x00, "Ss ≤ Se ≤ 63"),    // band past the last coefficient
            (1, 1, 5, 0x20, "Al = Ah − 1"),      // refinement that skips a bit
            (1, 1, 5, 0x0E, "at most 13"),       // point transform too large for 16-bit coefficients
        ]
        for test in cases {
            let (bytes, sos) = try withScanParameters(test.scan, ss: test.ss, se: test.se, ahAl: test.ahAl)
            XCTAssertThrowsError(try JPEGDecoder().decode(bytes), test.rule) { error in
                let decodingError = error as? ImageDecodingError
                XCTAssertEqual(decodingError?.kind, .invalidData, test.rule)
                XCTAssertEqual(decodingError?.offset, sos, test.rule)
                XCTAssertTrue(decodingError?.message.contains(test.rule) == true, "\(test.rule): \(String(describing: decodingError))")
            }
        }
    }

    func testFeedingOneByteAtATimeExaminesEachByteABoundedNumberOfTimes() throws {
        for file in [path, "jpeg/generated/synth_progressive_restart_5B.jpg", "jpeg/generated/synth_progressive_dc_noninterleaved.jpg"] {
            let bytes = try JPEGCorpus.bytes(file)
            let decoder = JPEGDecoder()
            for byte in bytes { try decoder.feed([byte]) }
            _ = try decoder.finish()
            // Each byte is read once by the parser or bit reader and at most once more by the marker look-ahead.
            XCTAssertLessThanOrEqual(decoder.inputBytesExamined, 2 * bytes.count, file)
            XCTAssertGreaterThanOrEqual(decoder.inputBytesExamined, bytes.count - 2, file)
        }
    }

    func testSeededMutationsNeverTrap() throws {
        let paths = [path, "jpeg/generated/odd_17x33_422_progressive.jpg", "jpeg/generated/synth_progressive_restart_5B.jpg",
                     "jpeg/generated/testorig_progressive_dc_noninterleaved.jpg", "jpeg/generated/synth_gray_progressive.jpg"]
        let outcome = try JPEGReferenceChecks.mutationSweep(paths, perFile: 100, seed: 0x9806_F00D)
        XCTAssertEqual(outcome.problems, [])
        XCTAssertGreaterThan(outcome.successes, 0)
        XCTAssertGreaterThan(outcome.errors[.truncated] ?? 0, 0)
        XCTAssertGreaterThan(outcome.errors[.invalidData] ?? 0, 0)
    }
}
