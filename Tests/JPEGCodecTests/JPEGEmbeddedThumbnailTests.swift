import Foundation
@testable import JPEGCodec
import ImageCore
import TestSupport
import XCTest

/// A sequential camera JPEG shows its Exif thumbnail, stretched, in the rows not decoded yet.
final class JPEGEmbeddedThumbnailTests: XCTestCase {
    private struct Reference: Decodable {
        struct Thumbnail: Decodable { var width: Int; var height: Int; var sha256: String }
        var width: Int
        var height: Int
        var sha256: String
        var thumbnail: Thumbnail
    }

    private let folder = "jpeg-extra/thumbnail/"
    private func reference() throws -> Reference {
        let all = try JSONDecoder().decode([String: Reference].self,
                                           from: Data(contentsOf: Fixtures.url(folder + "references.json")))
        return try XCTUnwrap(all["exif_thumbnail.jpg"])
    }

    /// Offset of the first byte after the SOF segment: the picture exists, no row yet.
    private func endOfFrameHeader(_ bytes: [UInt8]) throws -> Int {
        var index = 2
        while index + 4 <= bytes.count {
            guard bytes[index] == 0xFF else { break }
            let marker = bytes[index + 1]
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            if (0xC0...0xC2).contains(marker) { return index + 2 + length }
            index += 2 + length
        }
        throw XCTSkip("no SOF found")
    }

    /// The thumbnail as this decoder shows it: the embedded JPEG, checked against djpeg.
    private func thumbnail(_ bytes: [UInt8], _ reference: Reference) throws -> Image {
        let range = try XCTUnwrap(bytes.withUnsafeBytes { all -> Range<Int>? in
            // The APP1 body starts after FF E1 and the 2-byte length.
            let app1 = try? XCTUnwrap((0..<(all.count - 1)).first { all[$0] == 0xFF && all[$0 + 1] == 0xE1 })
            guard let app1 else { return nil }
            let body = UnsafeRawBufferPointer(rebasing: all[(app1 + 4)...])
            return ExifThumbnail.jpegRange(inAPP1: body).map { ($0.lowerBound + app1 + 4)..<($0.upperBound + app1 + 4) }
        })
        let image = try JPEGDecoder().decode(Array(bytes[range]))
        XCTAssertEqual([image.width, image.height], [reference.thumbnail.width, reference.thumbnail.height])
        XCTAssertEqual(Digest.sha256(image.pixels), reference.thumbnail.sha256, "the thumbnail decodes as djpeg does")
        return image
    }

    /// The thumbnail stretched to `width` × `height`, nearest sample, as the decoder fills rows.
    private func stretched(_ thumbnail: Image, width: Int, height: Int) -> [UInt8] {
        var out: [UInt8] = []
        for y in 0..<height {
            let sourceY = min(thumbnail.height - 1, y * thumbnail.height / height)
            for x in 0..<width {
                let sourceX = min(thumbnail.width - 1, x * thumbnail.width / width)
                let at = (sourceY * thumbnail.width + sourceX) * 3
                out += thumbnail.pixels[at..<(at + 3)]
            }
        }
        return out
    }

    func testTheThumbnailShowsBeforeTheFirstRowAndRowsReplaceItTopDown() throws {
        let bytes = try Fixtures.bytes(folder + "exif_thumbnail.jpg")
        let reference = try reference()
        let expectedThumbnail = stretched(try thumbnail(bytes, reference), width: reference.width, height: reference.height)
        let decoder = JPEGDecoder()
        let sof = try endOfFrameHeader(bytes)
        try decoder.feed(bytes[..<sof])
        XCTAssertEqual(decoder.header?.hasEmbeddedThumbnail, true)
        let before = try XCTUnwrap(decoder.currentImage())
        XCTAssertTrue(before.pixels == expectedThumbnail, "every pixel is the stretched thumbnail before any row")
        XCTAssertGreaterThan(decoder.status.previewGeneration, 0, "the thumbnail is a picture worth showing")

        // Half the file: decoded rows on top, the thumbnail below.
        try decoder.feed(bytes[sof..<(bytes.count / 2)])
        let half = try XCTUnwrap(decoder.currentImage())
        let final = try JPEGDecoder().decode(bytes)
        XCTAssertEqual(Digest.sha256(final.pixels), reference.sha256, "the final picture is djpeg's")
        let rowBytes = reference.width * 3
        let decodedRows = try XCTUnwrap(decoder.status.progress?.completedRows)
        XCTAssertGreaterThan(decodedRows, 0)
        XCTAssertLessThan(decodedRows, reference.height - 16)
        XCTAssertTrue(half.pixels[..<(decodedRows * rowBytes)] == final.pixels[..<(decodedRows * rowBytes)])
        let untouched = (decodedRows + 16) * rowBytes
        XCTAssertTrue(half.pixels[untouched...] == expectedThumbnail[untouched...], "rows not reached show the thumbnail")

        try decoder.feed(bytes[(bytes.count / 2)...])
        XCTAssertEqual(Digest.sha256(try decoder.finish().pixels), reference.sha256, "the thumbnail leaves no trace")
    }

    func testTheThumbnailCanBeTurnedOff() throws {
        let bytes = try Fixtures.bytes(folder + "exif_thumbnail.jpg")
        let decoder = JPEGDecoder(options: DecodingOptions(usesEmbeddedThumbnail: false))
        try decoder.feed(bytes[..<(try endOfFrameHeader(bytes))])
        XCTAssertEqual(decoder.header?.hasEmbeddedThumbnail, false)
        XCTAssertTrue(try XCTUnwrap(decoder.currentImage()).pixels.allSatisfy { $0 == 0 })
    }

    func testABrokenThumbnailIsIgnored() throws {
        var bytes = try Fixtures.bytes(folder + "exif_thumbnail.jpg")
        // Damage the thumbnail's own frame header (its SOF0 marker inside the Exif block).
        let app1 = try XCTUnwrap((0..<(bytes.count - 1)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xE1 })
        let sofInThumbnail = try XCTUnwrap((app1..<(bytes.count - 1)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
        bytes[sofInThumbnail + 5] = 0  // height 0
        bytes[sofInThumbnail + 6] = 0
        let decoder = JPEGDecoder()
        try decoder.feed(bytes[..<(try endOfFrameHeader(bytes))])
        XCTAssertEqual(decoder.header?.hasEmbeddedThumbnail, false)
        XCTAssertEqual(Digest.sha256(try decoder.decode([UInt8](bytes[(try endOfFrameHeader(bytes))...])).pixels),
                       try reference().sha256)
    }

    func testExifWithoutAThumbnailOrWithBadOffsetsGivesNone() {
        // TIFF header, IFD0 with no entries and no next IFD.
        let noIFD1: [UInt8] = Array("Exif".utf8) + [0, 0, 0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0]
        XCTAssertNil(noIFD1.withUnsafeBytes { ExifThumbnail.jpegRange(inAPP1: $0) })
        // IFD1 pointing past the end.
        var pastEnd: [UInt8] = Array("Exif".utf8) + [0, 0, 0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 0, 0, 0, 0, 14]
        pastEnd += [0, 2, 0x02, 0x01, 0, 4, 0, 0, 0, 1, 0, 0, 0xFF, 0, 0x02, 0x02, 0, 4, 0, 0, 0, 1, 0, 0, 0, 9, 0, 0, 0, 0]
        XCTAssertNil(pastEnd.withUnsafeBytes { ExifThumbnail.jpegRange(inAPP1: $0) })
        XCTAssertNil([UInt8](repeating: 0xFF, count: 40).withUnsafeBytes { ExifThumbnail.jpegRange(inAPP1: $0) })
    }
}
