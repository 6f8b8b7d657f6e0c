import XCTest
import ImageCore
import JPEGCodec
import TestSupport

/// Runs of 0xFF fill bytes inside entropy-coded data, read as libjpeg reads them: before the 0x00
/// stuffed after an 0xFF data byte (`FF FF 00` is one 0xFF) and before restart markers and EOI.
/// Cases and djpeg's pictures come from `TestImages/jpeg-extra/fill/make_fill_references.py`.
final class JPEGFillBytesTests: XCTestCase {
    struct Case: Decodable {
        var path: String
        var insert: [[Int]]
        var width: Int
        var height: Int
        var sha256: String
    }

    struct References: Decodable { var cases: [Case] }

    /// The source file with the case's runs of 0xFF inserted.
    private func filled(_ reference: Case) throws -> [UInt8] {
        var bytes = try Fixtures.bytes(reference.path)
        for edit in reference.insert.sorted(by: { $0[0] > $1[0] }) {
            bytes.insert(contentsOf: repeatElement(0xFF, count: edit[1]), at: edit[0])
        }
        return bytes
    }

    func testFillBytesDecodeToDjpegsPictureWithoutWarningsForEveryChunking() throws {
        let cases = try JSONDecoder().decode(References.self, from: Data(contentsOf: Fixtures.url("jpeg-extra/fill/references.json"))).cases
        XCTAssertEqual(cases.count, 6)
        for reference in cases {
            let bytes = try filled(reference)
            let original = try JPEGDecoder().decode(try Fixtures.bytes(reference.path))
            XCTAssertEqual(Digest.sha256(original.pixels), reference.sha256, reference.path)
            let chunkings: [(String, [ArraySlice<UInt8>])] = [
                ("whole", [bytes[...]]), ("1-byte", Chunking.fixed(bytes, size: 1)), ("7-byte", Chunking.fixed(bytes, size: 7)),
                ("4096-byte", Chunking.fixed(bytes, size: 4096)), ("random", Chunking.random(bytes, seed: 5, maxSize: 200)),
            ]
            for (name, pieces) in chunkings {
                let label = "\(reference.path), \(name)"
                let decoder = JPEGDecoder()
                for piece in pieces { try decoder.feed(piece) }
                let image = try decoder.finish()
                XCTAssertEqual(decoder.warnings, [], label)
                XCTAssertEqual(image.width, reference.width, label)
                XCTAssertEqual(image.height, reference.height, label)
                XCTAssertEqual(Digest.sha256(image.pixels), reference.sha256, label)
            }
        }
    }

    /// One-byte feeding examines each byte a bounded number of times, however long the fill runs.
    func testLongFillRunsKeepTheWorkLinear() throws {
        for path in ["corpus/jpeg/libjpeg-turbo/testorig.jpg", "corpus/jpeg/libjpeg-turbo/testimgari.jpg"] {
            var bytes = try Fixtures.bytes(path)
            let plain = try JPEGDecoder().decode(bytes)
            // 20,000 fill bytes before the last stuffed zero of the entropy-coded data.
            guard let stuffed = (0..<(bytes.count - 2)).last(where: { bytes[$0] == 0xFF && bytes[$0 + 1] == 0 }) else {
                return XCTFail("no stuffed byte in \(path)")
            }
            bytes.insert(contentsOf: repeatElement(0xFF, count: 20_000), at: stuffed)
            let decoder = JPEGDecoder()
            for byte in bytes { try decoder.feed([byte]) }
            XCTAssertEqual(try decoder.finish(), plain, path)
            XCTAssertLessThanOrEqual(decoder.inputBytesExamined, 3 * bytes.count, path)
        }
    }

    /// Fill at the very end: a file cut inside a run of 0xFF is truncated, with the picture so far.
    func testAFileCutInsideAFillRunIsTruncated() throws {
        var bytes = try Fixtures.bytes("corpus/jpeg/libjpeg-turbo/testorig.jpg")
        guard let stuffed = (0..<(bytes.count - 2)).first(where: { bytes[$0] == 0xFF && bytes[$0 + 1] == 0 }) else {
            return XCTFail("no stuffed byte")
        }
        bytes.insert(contentsOf: repeatElement(0xFF, count: 50), at: stuffed)
        let cut = Array(bytes[..<(stuffed + 20)])
        var pictures: [Image?] = []
        for pieces in [[cut[...]], Chunking.fixed(cut, size: 1)] {
            let decoder = JPEGDecoder()
            for piece in pieces { try decoder.feed(piece) }
            XCTAssertThrowsError(try decoder.finish()) { XCTAssertEqual(($0 as? ImageDecodingError)?.kind, .truncated) }
            XCTAssertEqual(decoder.currentImage()?.width, 227)
            pictures.append(decoder.currentImage())
        }
        XCTAssertEqual(pictures[0], pictures[1])
    }
}
