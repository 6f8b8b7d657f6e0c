import XCTest
import ImageCore
import JPEGCodec
import TestSupport

/// Arithmetic-coded JPEG (SOF9, SOF10) decodes to djpeg's pictures for every chunking and scale.
final class JPEGArithmeticConformanceTests: XCTestCase {
    func testFixturesMatchDjpegForEveryChunking() throws {
        let references = try JPEGArithmeticFixtures.load()
        XCTAssertEqual(references.fixtures.count, 51)
        var failures: [String] = []
        for (index, fixture) in references.fixtures.enumerated() {
            let bytes = try fixture.bytes()
            for (name, pieces) in JPEGArithmeticFixtures.chunkings(bytes, seed: UInt64(index) &+ 0xA817) {
                let result = JPEGArithmeticFixtures.decode(pieces)
                if let problem = JPEGArithmeticFixtures.mismatch(result, picture: fixture.picture(scale: .full),
                                                                 width: fixture.width, height: fixture.height,
                                                                 error: fixture.djpeg_rc == 0 ? nil : .invalidData) {
                    failures.append("\(fixture.path) \(name): \(problem)")
                }
            }
        }
        XCTAssertEqual(failures, [])
    }

    /// Files djpeg decodes without a warning. (The DAC-edited files decode to coefficients far
    /// beyond any valid file's; libjpeg-turbo's reduced IDCTs saturate them to 16 bits in SIMD
    /// (1/2, 1/4) or keep full products in C (1/8), which the shared reduced IDCTs do not copy.)
    func testScaledDecodesMatchDjpegScale() throws {
        var failures: [String] = []
        for fixture in try JPEGArithmeticFixtures.load().fixtures where fixture.djpeg_rc == 0 {
            let bytes = try fixture.bytes()
            for scale in [ScaleFactor.half, .quarter, .eighth] {
                let picture = fixture.picture(scale: scale)
                let result = JPEGArithmeticFixtures.decode(Chunking.fixed(bytes, size: 1000), options: DecodingOptions(scale: scale))
                if let problem = JPEGArithmeticFixtures.mismatch(result, picture: picture, width: picture.width, height: picture.height,
                                                                 error: fixture.djpeg_rc == 0 ? nil : .invalidData) {
                    failures.append("\(fixture.path) 1/\(scale.rawValue): \(problem)")
                }
            }
        }
        XCTAssertEqual(failures, [])
    }

    func testCorpusArithmeticFilesMatchTheirReferences() throws {
        let entries = try CorpusManifest.load().files.filter { $0.isJPEG && $0.optional == "arithmetic coding" }
        XCTAssertEqual(entries.count, 5)
        var failures: [String] = []
        for (index, entry) in entries.enumerated() {
            let bytes = try CorpusManifest.bytes(of: entry)
            failures += JPEGReferenceChecks.mismatches(entry, bytes: bytes,
                                                       chunkings: JPEGArithmeticFixtures.chunkings(bytes, seed: UInt64(index) &+ 0xA817))
        }
        XCTAssertEqual(failures, [])
    }

    func testHeaderReportsProgressiveForSOF10Only() throws {
        let references = try JPEGArithmeticFixtures.load().fixtures
        for path in ["files/prog_420.jpg", "files/seq_gray.jpg"] {
            guard let fixture = references.first(where: { $0.path == path }) else { return XCTFail("no \(path)") }
            let decoder = JPEGDecoder()
            try decoder.feed(try fixture.bytes())
            XCTAssertEqual(decoder.header?.isProgressive, path.contains("prog"), path)
        }
    }
}
