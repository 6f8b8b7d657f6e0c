import Foundation
@testable import ImageLoading
import IncrementalImage
import LoopbackHTTPServer
import TestSupport
import XCTest

/// Real JPEG and PNG files over a slow loopback link. Skipped until the codecs provide decoders.
final class RealImageLoadTests: LoaderTestCase {
    private func requireDecoder(_ format: String) throws {
        try XCTSkipUnless(ImageDecoderRegistry.standard.canDecode(format), "no \(format) decoder in this build yet")
    }

    /// Decodes `bytes` in one go, skipping the test while the decoder answers `unsupported`
    /// (the JPEG codec lands baseline first, progressive later).
    private func decodeOrSkip(_ bytes: [UInt8], options: DecodingOptions = ImageRequest.defaultDecodingOptions) throws -> Image {
        do {
            return try ImageSource.decode(bytes, options: options)
        } catch let error as ImageDecodingError where error.kind == .unsupported {
            throw XCTSkip("decoder does not support this file yet: \(error)")
        }
    }

    /// Peak signal-to-noise ratio of `image` against `reference` in dB (infinity when identical).
    private func psnr(_ image: Image, _ reference: Image) -> Double {
        guard image.pixels.count == reference.pixels.count else { return -.infinity }
        var squares = 0.0
        for (a, b) in zip(image.pixels, reference.pixels) {
            let difference = Double(a) - Double(b)
            squares += difference * difference
        }
        let meanSquare = squares / Double(max(reference.pixels.count, 1))
        return meanSquare == 0 ? .infinity : 10 * log10(255 * 255 / meanSquare)
    }

    /// Every scan or pass boundary of `bytes`, found with a fresh source.
    private func scanBoundaries(of bytes: [UInt8]) throws -> [ScanBoundary] {
        try ScanBoundary.all(in: bytes, decoder: ImageSource(options: ImageRequest.defaultDecodingOptions))
    }

    /// Serves `bytes` pausing 80 ms at each scan boundary and loads them with previews every 20 ms.
    private func loadPausingAtScans(_ path: String, _ bytes: [UInt8],
                                    boundaries: [ScanBoundary]) async throws -> LoadRecord {
        var pauses: [Int: TimeInterval] = [:]
        for boundary in boundaries { pauses[boundary.offset] = 0.08 }
        server.setRoute(path, HTTPRoute(body: bytes, chunkSize: 512, pauses: pauses))
        return try await load(ImageRequest(url: server.url(path)), with: makeLoader(previewInterval: 0.02), seconds: 30)
    }

    func testProgressiveJPEGSharpensWithEveryPreviewAndEndsExact() async throws {
        try requireDecoder("JPEG")
        let bytes = try Fixtures.bytes("corpus/jpeg/generated/synth_progressive.jpg")
        let final = try decodeOrSkip(bytes)
        let boundaries = try scanBoundaries(of: bytes)
        XCTAssertGreaterThanOrEqual(boundaries.count, 3, "a 10-scan file has several scan boundaries")
        let record = try await loadPausingAtScans("/progressive.jpg", bytes, boundaries: boundaries)
        XCTAssertTrue(record.response?.image == final, "the final image equals the one-shot decode")
        XCTAssertGreaterThanOrEqual(record.previews.count, 3)
        let ratios = record.previews.map { psnr($0, final) }
        for (earlier, later) in zip(ratios, ratios.dropFirst()) {
            XCTAssertGreaterThanOrEqual(later, earlier - 0.01, "PSNR must rise from preview to preview: \(ratios)")
        }
        XCTAssertGreaterThan(ratios.last ?? 0, ratios.first ?? 0)
    }

    func testAdam7PNGGivesAPreviewForEveryPass() async throws {
        try requireDecoder("PNG")
        let bytes = try Fixtures.bytes("corpus/png/pngsuite/basi2c08.png")
        // The file has gAMA 1.0: the loader's default options convert it to sRGB.
        let final = try ImageSource.decode(bytes, options: ImageRequest.defaultDecodingOptions)
        let boundaries = try scanBoundaries(of: bytes)
        // Pass 7 may end before IEND makes the status complete; passes 1–6 always come first.
        XCTAssertEqual(Array(boundaries.map(\.scans).prefix(6)), [1, 2, 3, 4, 5, 6])
        let record = try await loadPausingAtScans("/adam7.png", bytes, boundaries: boundaries)
        XCTAssertTrue(record.response?.image == final)
        for boundary in boundaries {
            XCTAssertTrue(record.previews.contains { $0 == boundary.image }, "no preview shows the image after pass \(boundary.scans)")
        }
    }

    func testBaselineJPEGPreviewsFillFromTheTop() async throws {
        try requireDecoder("JPEG")
        let bytes = try Fixtures.bytes("corpus/jpeg/generated/synth_baseline_q75_420.jpg")
        let final = try ImageSource.decode(bytes)
        server.setRoute("/baseline.jpg", HTTPRoute(body: bytes, chunkSize: 256, pauseBetweenChunks: 0.015))
        let record = try await load(ImageRequest(url: server.url("/baseline.jpg")), with: makeLoader(previewInterval: 0.02), seconds: 30)
        XCTAssertTrue(record.response?.image == final)
        let rowBytes = final.bytesPerRow
        let finishedRows = record.previews.map { preview in
            (0..<final.height).prefix { row in
                preview.pixels[(row * rowBytes)..<((row + 1) * rowBytes)] == final.pixels[(row * rowBytes)..<((row + 1) * rowBytes)]
            }.count
        }
        XCTAssertGreaterThanOrEqual(Set(finishedRows.filter { $0 > 0 && $0 < final.height }).count, 2,
                                    "several partial previews, each with more rows: \(finishedRows)")
        XCTAssertEqual(finishedRows, finishedRows.sorted())
    }

    /// Loads the 192×128 baseline JPEG as a `maxPixelSize` thumbnail; also returns its 1/4-scale decode.
    private func loadBaselineThumbnail(maxPixelSize: Int) async throws -> (thumbnail: Image?, quarter: Image) {
        try requireDecoder("JPEG")
        let bytes = try Fixtures.bytes("corpus/jpeg/generated/synth_baseline_q75_420.jpg")
        let quarter = try decodeOrSkip(bytes, options: DecodingOptions(scale: .quarter))
        let path = "/thumb\(maxPixelSize).jpg"
        server.setRoute(path, HTTPRoute(body: bytes))
        let record = try await load(ImageRequest(url: server.url(path), maxPixelSize: maxPixelSize), with: makeLoader())
        return (record.response?.image, quarter)
    }

    func testJPEGThumbnailIsScaledInTheDCTDomain() async throws {
        // 192×128 for 48 px: scale 1/4 gives 48×32 exactly, so no resize follows.
        let (thumbnail, quarter) = try await loadBaselineThumbnail(maxPixelSize: 48)
        XCTAssertEqual([quarter.width, quarter.height], [48, 32])
        XCTAssertTrue(thumbnail == quarter)
    }

    func testJPEGThumbnailBetweenScalesIsResizedExactly() async throws {
        // 192×128 for 40 px: scale 1/4 (48×32), then the box filter to 40×27.
        let (thumbnail, quarter) = try await loadBaselineThumbnail(maxPixelSize: 40)
        XCTAssertTrue(thumbnail == ImageDownscaler.resize(quarter, width: 40, height: 27))
    }

    func testCorpusPhotoLoadsFromAFileURL() async throws {
        try requireDecoder("PNG")
        let url = Fixtures.url("corpus/png/extras/rgba16_photo_interlaced.png")
        let record = try await load(ImageRequest(url: url), with: makeLoader(disk: false), seconds: 60)
        XCTAssertTrue(record.response?.image == (try ImageSource.decode(contentsOf: url)))
    }
}
