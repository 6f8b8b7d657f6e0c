import XCTest
import Foundation
import ImageCore
import JPEGCodec
import TestSupport

/// `TestImages/jpeg-extra/smoothing/references.json`, made by `make_smoothing_references.py` beside it
/// with libjpeg-turbo 3.x (imagecodecs, Pillow).
private struct SmoothingReferences: Decodable {
    struct Reference: Decodable {
        var file: String
        /// The file's first `cut` bytes; nil: the whole file.
        var cut: Int?
        /// "boundary" (just before an SOS marker), "mid" (inside a scan's data) or "whole".
        var kind: String
        var scale: Int
        var width: Int
        var height: Int
        var sha256: String
        /// Whether Debian's djpeg (libjpeg-turbo 2.1.5) gives the same pixels.
        var djpeg215: Bool
    }

    var references: [Reference]

    static func load() throws -> [Reference] {
        try JSONDecoder().decode(SmoothingReferences.self,
                                 from: Data(contentsOf: Fixtures.url("jpeg-extra/smoothing/references.json"))).references
    }
}

/// Pictures drawn from incomplete progressive data are block-smoothed exactly as libjpeg-turbo 3.x
/// smooths them: files cut at every scan boundary and inside scans, complete files whose scan
/// script stops before every coefficient is exact, gray / 4:2:0 / 4:4:4, odd sizes, 1/2 to 1/8.
final class JPEGSmoothingReferenceTests: XCTestCase {
    private func bytes(_ reference: SmoothingReferences.Reference) throws -> [UInt8] {
        let file = try Fixtures.bytes("jpeg-extra/smoothing/" + reference.file)
        return Array(file[..<(reference.cut ?? file.count)])
    }

    /// Feeds `pieces`, finishes (a cut file throws `truncated`) and returns the last picture.
    private func finalPicture(_ pieces: [ArraySlice<UInt8>], _ reference: SmoothingReferences.Reference,
                              previews: Bool = false) throws -> Image? {
        let options = DecodingOptions(scale: try XCTUnwrap(ScaleFactor(rawValue: reference.scale)))
        let decoder = JPEGDecoder(options: options)
        for piece in pieces {
            try decoder.feed(piece)
            if previews { _ = decoder.currentImage() }
        }
        if reference.cut == nil {
            return try decoder.finish()
        }
        XCTAssertThrowsError(try decoder.finish()) {
            XCTAssertEqual(($0 as? ImageDecodingError)?.kind, .truncated, "\(reference.file) cut at \(reference.cut ?? -1)")
        }
        return decoder.currentImage()
    }

    func testEveryReferenceDecodedWholeEqualsLibjpegTurbo() throws {
        let references = try SmoothingReferences.load()
        XCTAssertEqual(references.count, 360)
        var failures = 0
        for reference in references {
            let image = try finalPicture([try bytes(reference)[...]], reference)
            XCTAssertEqual(image?.width, reference.width)
            XCTAssertEqual(image?.height, reference.height)
            if image.map({ Digest.sha256($0.pixels) }) != reference.sha256 {
                failures += 1
                XCTFail("\(reference.file) cut at \(reference.cut.map(String.init) ?? "end") (\(reference.kind)) at 1/\(reference.scale)")
            }
        }
        XCTAssertEqual(failures, 0)
        // The references are libjpeg-turbo 3.x's: 2.1.5 differs on vertically subsampled pictures.
        XCTAssertGreaterThan(references.filter { !$0.djpeg215 }.count, 100)
    }

    func testChunkingsAndPreviewsGiveTheSamePicture() throws {
        // Every cut of two fixtures at full size, fed in 1-, 7- and 4096-byte and random pieces
        // (two of them per cut), with and without a preview after each piece.
        let references = try SmoothingReferences.load().filter {
            ($0.file == "color420_default.jpg" || $0.file == "short_dc_noninterleaved_444.jpg") && $0.scale == 1
        }
        XCTAssertGreaterThan(references.count, 25)
        for (number, reference) in references.enumerated() {
            let data = try bytes(reference)
            // Each cut gets two of the chunkings in turn (1-byte pieces for every fourth), to keep the test short.
            let all: [(String, [ArraySlice<UInt8>])] = [
                ("1", Chunking.fixed(data, size: 1)), ("7", Chunking.fixed(data, size: 7)),
                ("4096", Chunking.fixed(data, size: 4096)), ("random", Chunking.random(data, seed: UInt64(number), maxSize: 300)),
            ]
            let chunkings = [all[number % 4], all[(number + 1) % 4 == 0 ? 1 : (number + 1) % 4]]
            for (name, pieces) in chunkings {
                for previews in [false, true] where name != "1" || !previews {
                    let image = try finalPicture(pieces, reference, previews: previews)
                    XCTAssertEqual(image.map { Digest.sha256($0.pixels) }, reference.sha256,
                                   "\(reference.file) cut at \(reference.cut ?? -1), pieces \(name), previews \(previews)")
                }
            }
        }
    }

    func testPreviewAtEachScanBoundaryEqualsLibjpegTurboOnThePrefix() throws {
        // A decoder fed up to and including the next SOS marker (its segment not parsed yet) has
        // every scan before it complete: its preview is what libjpeg shows for the file cut there.
        let references = try SmoothingReferences.load().filter { $0.kind == "boundary" }
        XCTAssertGreaterThan(references.count, 100)
        for reference in references {
            let file = try Fixtures.bytes("jpeg-extra/smoothing/" + reference.file)
            let cut = try XCTUnwrap(reference.cut)
            XCTAssertEqual(Array(file[cut..<(cut + 2)]), [0xFF, 0xDA])
            let decoder = JPEGDecoder(options: DecodingOptions(scale: try XCTUnwrap(ScaleFactor(rawValue: reference.scale))))
            for piece in Chunking.random(Array(file[..<(cut + 2)]), seed: UInt64(cut), maxSize: 500) {
                try decoder.feed(piece)
                _ = decoder.currentImage()
            }
            XCTAssertEqual(decoder.currentImage().map { Digest.sha256($0.pixels) }, reference.sha256,
                           "\(reference.file) preview before the SOS at \(cut), 1/\(reference.scale)")
        }
    }
}
