import XCTest
import ImageCore
import JPEGCodec
import TestSupport

/// Every sequential `expect: decode` JPEG of the corpus decodes to its djpeg reference, however it is fed.
final class JPEGCorpusConformanceTests: XCTestCase {
    func testSequentialCorpusFilesMatchReferencesForEveryChunking() throws {
        let entries = try JPEGCorpus.sequentialDecodeEntries()
        XCTAssertEqual(entries.count, 81)
        var failures: [String] = []
        for (index, entry) in entries.enumerated() {
            let bytes = try CorpusManifest.bytes(of: entry)
            let chunkings = JPEGReferenceChecks.chunkings(bytes, seed: UInt64(index) &+ 0x5EED)
            failures += JPEGReferenceChecks.mismatches(entry, bytes: bytes, chunkings: chunkings)
        }
        XCTAssertEqual(failures, [])
    }

    func testPixelFormatIsGrayForOneComponentAndRGBOtherwise() throws {
        for entry in try JPEGCorpus.sequentialDecodeEntries() {
            let image = try JPEGDecoder().decode(try CorpusManifest.bytes(of: entry))
            XCTAssertEqual(image.format, entry.reference?.pixel_format == "gray8" ? .gray8 : .rgb8, entry.path)
        }
    }

    func testUpstreamMD5OfPlainDjpegOutputReproduces() throws {
        // libjpeg-turbo's MD5_PPM_EXAMPLE_DECOMPRESS: `djpeg testorig.jpg` as a whole PPM file.
        let image = try JPEGDecoder().decode(try JPEGCorpus.bytes("jpeg/libjpeg-turbo/testorig.jpg"))
        XCTAssertEqual(Digest.md5(Self.ppm(image)), "dea1d7bbc37e39adf628342c86096641")
    }

    /// The image as the binary PPM djpeg writes: "P6\n<w> <h>\n255\n" then the pixels.
    static func ppm(_ image: Image) -> [UInt8] {
        Array("P6\n\(image.width) \(image.height)\n255\n".utf8) + image.pixels
    }
}
