import XCTest
import ImageCore
import JPEGCodec
import TestSupport

/// Every non-optional sequential `expect: decode` JPEG of the corpus decodes to its reference.
final class JPEGCorpusConformanceTests: XCTestCase {
    func testSequentialCorpusFilesMatchReferencesWhenFedWhole() throws {
        let entries = try JPEGCorpus.sequentialDecodeEntries()
        XCTAssertGreaterThan(entries.count, 60)
        var failures: [String] = []
        for entry in entries {
            let bytes = try CorpusManifest.bytes(of: entry)
            do {
                let image = try JPEGDecoder().decode(bytes)
                let hash = Digest.sha256(image.pixels)
                if hash != entry.reference?.sha256 { failures.append("\(entry.path): pixels differ") }
            } catch {
                failures.append("\(entry.path): \(error)")
            }
        }
        XCTAssertEqual(failures, [])
    }
}
