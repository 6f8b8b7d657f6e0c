import ImageCore
import PNGCodec
import TestSupport
import XCTest

/// Every PNG of the conformance corpus against its manifest entry.
final class CorpusConformanceTests: XCTestCase {
    func testEveryDecodableFileMatchesItsReferenceHash() throws {
        let entries = try PNGTestSupport.decodableEntries()
        XCTAssertGreaterThanOrEqual(entries.count, 170)
        for entry in entries {
            guard let reference = entry.reference, let expected = reference.sha256 else {
                XCTFail("\(entry.path): no reference hash"); continue
            }
            do {
                let image = try PNGTestSupport.decode(try CorpusManifest.bytes(of: entry))
                XCTAssertEqual(image.width, reference.width, entry.path)
                XCTAssertEqual(image.height, reference.height, entry.path)
                let pixels = PNGTestSupport.referencePixels(image, referenceFormat: reference.pixel_format)
                XCTAssertEqual(Digest.sha256(pixels), expected, "\(entry.path) (\(image.format))")
            } catch {
                XCTFail("\(entry.path): \(error)")
            }
        }
    }

    /// Expected kinds per corpus error class.
    private static let kindForClass: [String: ImageDecodingError.Kind] = [
        "signature": .invalidSignature,
        "crc": .checksumMismatch,
        "invalid_header": .invalidData,
        "missing_idat": .invalidData,
        "zlib_preset_dictionary": .unsupported,
        "zlib_checksum": .checksumMismatch,
        "zlib_header": .invalidData,
    ]

    func testEveryErrorFileThrowsTheExpectedKind() throws {
        let entries = try PNGTestSupport.corpusEntries().filter { $0.expect == "error" }
        XCTAssertEqual(entries.count, 17)
        for entry in entries {
            let bytes = try CorpusManifest.bytes(of: entry)
            let errorClass = entry.expected_error_class ?? "?"
            guard let expected = Self.kindForClass[errorClass] else {
                XCTFail("\(entry.path): no expected kind for class \(errorClass)"); continue
            }
            XCTAssertEqual(PNGTestSupport.errorKind { try PNGTestSupport.decode(bytes) }, expected,
                           "\(entry.path) (\(errorClass))")
        }
    }

    func testPartialFilesNeverTrapAndKeepTheirRows() throws {
        let entries = try PNGTestSupport.corpusEntries().filter { $0.expect == "error_or_partial" }
        XCTAssertFalse(entries.isEmpty)
        for entry in entries {
            let decoder = PNGDecoder()
            let bytes = try CorpusManifest.bytes(of: entry)
            var thrown: ImageDecodingError.Kind?
            do {
                try decoder.feed(bytes)
                _ = try decoder.finish()
            } catch let error as ImageDecodingError {
                thrown = error.kind
            }
            // The corpus's only such file is cut in half: it must say so and show the rows it had.
            XCTAssertEqual(thrown, .truncated, entry.path)
            let partial = try XCTUnwrap(decoder.currentImage(), entry.path)
            XCTAssertEqual(partial.pixels.count, partial.width * partial.height * partial.format.bytesPerPixel)
            XCTAssertGreaterThan(decoder.status.progress?.completedRows ?? 0, 0, entry.path)
        }
    }
}
