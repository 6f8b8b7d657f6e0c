import XCTest
import ImageCore
import JPEGCodec
import TestSupport

/// Every sequential `expect: decode` JPEG of the corpus decodes to its djpeg reference, however it is fed.
final class JPEGCorpusConformanceTests: XCTestCase {
    /// Files up to this size are also fed one byte at a time.
    private let oneByteFeedingLimit = 16_000

    func testSequentialCorpusFilesMatchReferencesForEveryChunking() throws {
        let entries = try JPEGCorpus.sequentialDecodeEntries()
        XCTAssertEqual(entries.count, 81)
        var failures: [String] = []
        for (index, entry) in entries.enumerated() {
            let bytes = try CorpusManifest.bytes(of: entry)
            var chunkings: [(String, [ArraySlice<UInt8>])] = [
                ("whole", [bytes[...]]),
                ("7-byte", Chunking.fixed(bytes, size: 7)),
                ("4096-byte", Chunking.fixed(bytes, size: 4096)),
                ("random", Chunking.random(bytes, seed: UInt64(index) &+ 0x5EED, maxSize: 900)),
            ]
            if bytes.count <= oneByteFeedingLimit { chunkings.append(("1-byte", Chunking.fixed(bytes, size: 1))) }
            for (name, pieces) in chunkings {
                do {
                    let image = try JPEGCorpus.decode(pieces)
                    if image.width != entry.reference?.width || image.height != entry.reference?.height {
                        failures.append("\(entry.path) \(name): size \(image.width)×\(image.height)")
                    } else if Digest.sha256(image.pixels) != entry.reference?.sha256 {
                        failures.append("\(entry.path) \(name): pixels differ from the reference")
                    }
                } catch {
                    failures.append("\(entry.path) \(name): \(error)")
                }
            }
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
