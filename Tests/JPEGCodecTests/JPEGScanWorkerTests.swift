import XCTest
import ImageCore
@testable import JPEGCodec
import TestSupport

/// Progressive scans decoded on the worker (``ScanWorker``, `maximumThreads: 2`, whole buffered
/// scans) leave everything a caller can see as one thread leaves it: pixels, the error thrown and
/// where, every warning in order, the status. The hand-over threshold is lowered to 1 byte so the
/// corpus's small files send most scans to the worker.
final class JPEGScanWorkerTests: XCTestCase {
    /// What a caller sees after feeding `bytes` whole and finishing.
    private struct Outcome: Equatable {
        var pixels: [UInt8]?
        var error: String?
        var warnings: [String]
        var completedScans: Int?
        var status: String
    }

    private func decode(_ bytes: [UInt8], threads: Int, pieces: [ArraySlice<UInt8>]? = nil) -> (Outcome, handedOver: Int) {
        let (outcome, handedOver, _) = decodeCounting(bytes, threads: threads, pieces: pieces)
        return (outcome, handedOver)
    }

    /// ``decode(_:threads:pieces:)`` that also counts the warnings met on the worker.
    private func decodeCounting(_ bytes: [UInt8], threads: Int, pieces: [ArraySlice<UInt8>]? = nil)
        -> (Outcome, handedOver: Int, workerWarnings: Int) {
        let decoder = JPEGDecoder(options: DecodingOptions(maximumThreads: threads))
        decoder.minimumHandOverBytes = 1
        var error: String?
        do {
            for piece in pieces ?? [bytes[...]] { try decoder.feed(piece) }
            _ = try decoder.finish()
        } catch let thrown as ImageDecodingError {
            error = "\(thrown.kind) at \(thrown.offset ?? -1): \(thrown.message)"
        } catch {
            return (Outcome(pixels: nil, error: "unexpected \(error)", warnings: [], completedScans: nil, status: ""), 0, 0)
        }
        let outcome = Outcome(pixels: decoder.currentImage()?.pixels, error: error,
                              warnings: decoder.warnings.map { "\($0.kind) at \($0.offset ?? -1): \($0.message)" },
                              completedScans: decoder.status.progress?.completedScans, status: "\(decoder.status)")
        return (outcome, decoder.scanWorker?.scansHandedOver ?? 0, decoder.scanWorker?.warningsFromJobs ?? 0)
    }

    func testProgressiveCorpusFilesGiveTheOneThreadOutcomeWithScansOnTheWorker() throws {
        let entries = try JPEGProgressiveCorpus.decodeEntries()
        XCTAssertGreaterThan(entries.count, 15)
        var handedOver = 0, filesWithHandOvers = 0
        for entry in entries {
            let bytes = try CorpusManifest.bytes(of: entry)
            let (one, none) = decode(bytes, threads: 1)
            let (two, handed) = decode(bytes, threads: 2)
            XCTAssertEqual(none, 0, entry.path)
            XCTAssertEqual(two, one, entry.path)
            XCTAssertEqual(two.pixels.map(Digest.sha256), entry.reference?.sha256, entry.path)
            handedOver += handed
            if handed > 0 { filesWithHandOvers += 1 }
        }
        // The scan after the first DC scan finds the worker idle (how many more go there depends on
        // timing: a scan goes when the worker is idle or busy with scans it depends on).
        XCTAssertGreaterThan(filesWithHandOvers, entries.count / 2)
        print("scan worker: \(handedOver) scans handed over in \(filesWithHandOvers) of \(entries.count) files")
    }

    func testTheThresholdKeepsSmallScansHere() throws {
        let bytes = try JPEGCorpus.bytes("jpeg/generated/synth_progressive_444.jpg")
        let byDefault = JPEGDecoder(options: DecodingOptions(maximumThreads: 2))
        try byDefault.feed(bytes)
        let never = JPEGDecoder(options: DecodingOptions(maximumThreads: 2))
        never.minimumHandOverBytes = Int.max
        try never.feed(bytes)
        XCTAssertEqual(try byDefault.finish(), try never.finish())
        // Scans of 730, 819, 1124, … bytes: the first is a DC first scan (never handed over), the
        // second (819 bytes, ≥ 512) finds the worker idle and goes there.
        XCTAssertGreaterThan(try XCTUnwrap(byDefault.scanWorker).scansHandedOver, 0)
        XCTAssertEqual(try XCTUnwrap(never.scanWorker).scansHandedOver, 0)
    }

    func testDamagedScansGiveTheOneThreadOutcome() throws {
        // Seeded damage after the first scan's header: flipped bits and bytes in entropy-coded
        // data (bad codes, cut scans), junk before markers, truncation.
        let paths = ["jpeg/generated/synth_progressive_444.jpg", "jpeg/generated/testorig_progressive.jpg",
                     "jpeg/generated/synth_progressive_restart_5B.jpg", "jpeg/generated/synth_progressive_succ_approx.jpg"]
        var rng = SeededGenerator(seed: 0x5CA_4B0B)
        var handedOver = 0, withWarnings = 0, withErrors = 0, workerWarnings = 0
        for path in paths {
            let original = try JPEGCorpus.bytes(path)
            let firstScan = try XCTUnwrap(JPEGScanBoundaries.markerOffsets(in: original).first)
            for trial in 0..<40 {
                var bytes = original
                let position = Int.random(in: (firstScan + 12)..<bytes.count, using: &rng)
                switch trial % 4 {
                case 0: bytes[position] ^= UInt8(1) << UInt8.random(in: 0...7, using: &rng)
                case 1: bytes[position] = UInt8.random(in: 0...255, using: &rng)
                case 2: bytes.insert(contentsOf: [0x12, 0x34, 0x56], at: position)
                default: bytes[position] = 0xFF; bytes.insert(0xD9, at: min(position + 1, bytes.count))
                }
                let (one, _) = decode(bytes, threads: 1)
                let (two, handed, warnings) = decodeCounting(bytes, threads: 2)
                workerWarnings += warnings
                let label = "\(path), trial \(trial) at \(position)"
                XCTAssertEqual(two.error, one.error, label)
                XCTAssertEqual(two.warnings, one.warnings, label)
                XCTAssertEqual(two.status, one.status, label)
                XCTAssertTrue(two.pixels == one.pixels, "pixels differ: \(label)")
                handedOver += handed
                if !one.warnings.isEmpty { withWarnings += 1 }
                if one.error != nil { withErrors += 1 }
            }
        }
        XCTAssertGreaterThan(handedOver, 100)
        XCTAssertGreaterThan(withWarnings, 40)
        XCTAssertGreaterThan(withErrors, 20)
        // The merge is exercised: damage met inside scans that were on the worker.
        XCTAssertGreaterThan(workerWarnings, 20)
        print("scan worker: \(handedOver) scans handed over, \(workerWarnings) warnings from them")
    }

    func testJunkAfterAHandedOverScanIsReportedWhereOneThreadReportsIt() throws {
        // Three junk bytes before the SOS that follows scan 2 (Y 1-5, handed over): one warning,
        // at the marker, as with one thread.
        let original = try JPEGCorpus.bytes("jpeg/generated/synth_progressive_444.jpg")
        let markers = JPEGScanBoundaries.markerOffsets(in: original)
        var bytes = original
        bytes.insert(contentsOf: [0x12, 0x34, 0x56], at: markers[2])
        let (one, _) = decode(bytes, threads: 1)
        let (two, handed) = decode(bytes, threads: 2)
        XCTAssertGreaterThan(handed, 0)
        XCTAssertEqual(two, one)
        XCTAssertEqual(two.warnings.filter { $0.contains("at \(markers[2] + 3):") }.count, 1, "\(two.warnings)")
    }

    func testPiecesEndingAtEveryScanGiveTheOneThreadPreviews() throws {
        // Each piece ends just after a scan, so whole scans are buffered when their turn comes:
        // every picture in between equals the one-thread picture of the same prefix.
        let bytes = try JPEGCorpus.bytes("jpeg/generated/synth_progressive_444.jpg")
        // Just past each SOS (and EOI) marker's two bytes: the scan before it is then whole.
        let cuts = JPEGScanBoundaries.markerOffsets(in: bytes).map { $0 + 2 }
        let one = JPEGDecoder(), two = JPEGDecoder(options: DecodingOptions(maximumThreads: 2))
        two.minimumHandOverBytes = 1
        var start = 0
        for cut in cuts where cut > start {
            try one.feed(bytes[start..<cut])
            try two.feed(bytes[start..<cut])
            XCTAssertEqual(two.currentImage(), one.currentImage(), "after \(cut) bytes")
            XCTAssertEqual(two.status, one.status, "after \(cut) bytes")
            start = cut
        }
        XCTAssertEqual(try two.finish(), try one.finish())
        XCTAssertGreaterThan(try XCTUnwrap(two.scanWorker).scansHandedOver, 0)
    }
}

/// ``ScanDataEnd`` (eight bytes at a time) against a byte-by-byte reading of T.81 B.1.1.5.
final class ScanDataEndTests: XCTestCase {
    /// The first 0xFF run followed by a code other than 0x00 or RSTn: its start, code index and
    /// code when the code is SOF0 or above, else nil (also when the buffer ends first).
    private func reference(_ bytes: [UInt8]) -> ScanDataEnd.Found? {
        var index = 0
        while index < bytes.count {
            guard bytes[index] == 0xFF else { index += 1; continue }
            var code = index + 1
            while code < bytes.count && bytes[code] == 0xFF { code += 1 }
            guard code < bytes.count else { return nil }
            if bytes[code] == 0 || (0xD0...0xD7).contains(bytes[code]) { index = code + 1; continue }
            return bytes[code] >= 0xC0 ? ScanDataEnd.Found(start: index, codeIndex: code, code: bytes[code]) : nil
        }
        return nil
    }

    func testEveryPlacementOfMarkersStuffingAndFillAgreesWithTheBytewiseReading() {
        var rng = SeededGenerator(seed: 0xE_0D5)
        let specials: [[UInt8]] = [[0xFF, 0x00], [0xFF, 0xD3], [0xFF, 0xFF, 0xD7], [0xFF, 0xDA], [0xFF, 0xFF, 0xFF, 0xD9],
                                   [0xFF, 0xC4], [0xFF, 0x12], [0xFF, 0x01], [0xFF], [0xFF, 0xFF]]
        var found = 0
        for trial in 0..<4000 {
            var bytes: [UInt8] = []
            let length = Int.random(in: 0...70, using: &rng)
            while bytes.count < length {
                if Int.random(in: 0..<8, using: &rng) == 0 {
                    bytes += specials[Int.random(in: 0..<specials.count, using: &rng)]
                } else {
                    bytes.append(UInt8.random(in: 0...0xFE, using: &rng))
                }
            }
            var examined = 0
            let fast = bytes.withUnsafeBytes { ScanDataEnd.find(in: $0, examined: &examined) }
            XCTAssertEqual(fast, reference(bytes), "trial \(trial): \(bytes)")
            XCTAssertLessThanOrEqual(examined, bytes.count)
            if fast != nil { found += 1 }
        }
        XCTAssertGreaterThan(found, 500)
    }
}

/// Warnings of a scan on the worker and of the parser at the same stream offset keep the one
/// thread's order: the worker's scan comes first in the file.
final class JPEGScanWorkerWarningOrderTests: XCTestCase {
    func testAWorkerWarningAtTheSameOffsetAsTheParsersComesFirst() throws {
        // Found by the fuzz target (jpeg-progressive): a DC first scan of component 1, an AC scan
        // of component 3 (handed over) with junk before EOI, and no scan of component 2. The junk
        // warning and the missing-component warning both sit at EOI's offset.
        let bytes = try Fixtures.bytes("jpeg-extra/twothreads/fuzz_worker_warning_at_the_eoi_offset.jpg")
        var results: [[String]] = []
        for threads in [1, 2] {
            let decoder = JPEGDecoder(options: DecodingOptions(maximumThreads: threads))
            decoder.minimumHandOverBytes = 1
            try decoder.feed(bytes)
            XCTAssertThrowsError(try decoder.finish())
            results.append(decoder.warnings.map { "\($0.kind) at \($0.offset ?? -1): \($0.message)" })
            if threads == 2 { XCTAssertEqual(decoder.scanWorker?.scansHandedOver, 1) }
        }
        XCTAssertEqual(results[1], results[0])
        XCTAssertGreaterThanOrEqual(results[0].count, 2)
        XCTAssertEqual(Set(results[0].suffix(2).map { $0.split(separator: ":")[0] }).count, 1, "two warnings at one offset")
    }
}
