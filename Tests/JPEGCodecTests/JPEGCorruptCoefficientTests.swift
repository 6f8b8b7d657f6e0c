import XCTest
import Foundation
import ImageCore
import JPEGCodec
import TestSupport

/// `TestImages/jpeg-extra/damaged/references.json`, made by `make_references.py` beside it with djpeg.
private struct DamagedSequentialReferences: Decodable {
    struct File: Decodable {
        var name: String
        var description: String
        var width: Int
        var height: Int
        var channels: Int
        var sha256: String
        /// djpeg's first warning, e.g. "Corrupt JPEG data: premature end of data segment".
        var djpegWarning: String

        enum CodingKeys: String, CodingKey {
            case name, description, width, height, channels, sha256
            case djpegWarning = "djpeg_warning"
        }
    }

    var files: [File]

    static func load() throws -> DamagedSequentialReferences {
        try JSONDecoder().decode(DamagedSequentialReferences.self,
                                 from: Data(contentsOf: Fixtures.url("jpeg-extra/damaged/references.json")))
    }
}

/// Sequential files whose damaged entropy-coded data decodes to coefficients no valid file holds:
/// the picture must still be exactly djpeg's (libjpeg-turbo's Huffman decoding of garbage and its
/// SIMD IDCT's 16-bit arithmetic), however the bytes arrive.
final class JPEGCorruptCoefficientTests: XCTestCase {
    /// Our first warning for djpeg's first one: (kind, words in the message, whether finish() throws it).
    private func expectedWarning(for djpegWarning: String) -> (kind: ImageDecodingError.Kind, words: String, thrown: Bool)? {
        if djpegWarning.hasSuffix("premature end of data segment") {
            return (.invalidData, "premature end of entropy-coded segment", true)
        }
        if djpegWarning.hasSuffix("bad Huffman code") {
            return (.invalidData, "invalid Huffman code", true)
        }
        if djpegWarning.hasSuffix("extraneous bytes before marker 0xd9") {
            // Bytes left over after the last MCU change no pixels, so finish() does not throw. The
            // count is not compared: libjpeg's includes whole bytes still in its bit buffer, which
            // depends on when it happened to refill.
            return (.invalidData, "extraneous byte(s) before marker EOI", false)
        }
        return nil
    }

    func testDamagedSequentialFilesDecodeToDjpegsPictureInAnyPieces() throws {
        let references = try DamagedSequentialReferences.load().files
        XCTAssertEqual(references.count, 6)
        for reference in references {
            let bytes = try Fixtures.bytes("jpeg-extra/damaged/" + reference.name)
            let expected = try XCTUnwrap(expectedWarning(for: reference.djpegWarning), reference.name)
            for (label, size) in [("whole", bytes.count), ("7-byte", 7), ("1-byte", 1)] {
                let context = "\(reference.name) (\(reference.description)), \(label)"
                let decoder = JPEGDecoder()
                var thrown: ImageDecodingError?
                do {
                    for piece in Chunking.fixed(bytes, size: size) { try decoder.feed(piece) }
                    _ = try decoder.finish()
                } catch {
                    thrown = error as? ImageDecodingError
                }
                let first = try XCTUnwrap(decoder.warnings.first, context)
                XCTAssertEqual(first.kind, expected.kind, context)
                XCTAssertTrue(first.message.contains(expected.words), "\(context): \(first)")
                XCTAssertEqual(thrown, expected.thrown ? first : nil, context)
                let image = try XCTUnwrap(decoder.currentImage(), context)
                XCTAssertEqual([image.width, image.height, image.format.channelCount],
                               [reference.width, reference.height, reference.channels], context)
                XCTAssertEqual(Digest.sha256(image.pixels), reference.sha256, context)
            }
        }
    }
}
