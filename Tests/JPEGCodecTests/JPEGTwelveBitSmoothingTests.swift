import XCTest
import ImageCore
import JPEGCodec
import TestSupport

/// Pictures drawn from incomplete 12-bit progressive data are block-smoothed exactly as
/// libjpeg-turbo 3.1.3 smooths them (the same predictions as 8-bit, dequantized in 64 bits):
/// six files (simple progression, successive approximation, non-interleaved DC, scripts that
/// stop early; gray, 4:2:0, 4:4:4, odd sizes) cut at every scan boundary (EOI appended), inside
/// every scan and whole, at 1/1 to 1/8 (`TestImages/jpeg-hibit/make_fixtures.py`, "cuts").
final class JPEGTwelveBitSmoothingTests: XCTestCase {
    /// Feeds `pieces` (a preview taken after each one if `previews`), finishes, and returns the
    /// last picture; a cut without EOI must throw `truncated`, any other must decode (or, cut before
    /// a component's first scan, throw `invalidData`).
    private func finalPicture(_ pieces: [ArraySlice<UInt8>], _ cut: HighPrecisionReferences.Cut,
                              previews: Bool = false) throws -> Image? {
        let decoder = JPEGDecoder(options: DecodingOptions(scale: try XCTUnwrap(ScaleFactor(rawValue: cut.scale))))
        for piece in pieces {
            try decoder.feed(piece)
            if previews { _ = decoder.currentImage() }
        }
        if cut.kind == "mid" {
            XCTAssertThrowsError(try decoder.finish(), "\(cut.path) cut at \(cut.cut)") {
                XCTAssertEqual(($0 as? ImageDecodingError)?.kind, .truncated, "\(cut.path) cut at \(cut.cut)")
            }
            return decoder.currentImage()
        }
        do {
            return try decoder.finish()
        } catch let error as ImageDecodingError {
            // EOI before some component had a scan (non-interleaved DC): libjpeg warns and draws it as zeros.
            XCTAssertEqual(error.kind, .invalidData, "\(cut.path) cut at \(cut.cut)")
            XCTAssertTrue(cut.kind == "boundary" && error.message.contains("before component"), "\(cut.path) cut at \(cut.cut): \(error)")
            return decoder.currentImage()
        }
    }

    private func describe(_ cut: HighPrecisionReferences.Cut) -> String {
        "\(cut.path) cut at \(cut.cut) (\(cut.kind)) 1/\(cut.scale)"
    }

    func testEveryCutDecodedWholeEqualsLibjpegTurbo() throws {
        let cuts = try HighPrecisionReferences.load().cuts
        XCTAssertEqual(cuts.count, 352)
        XCTAssertEqual(Set(cuts.map(\.path)).count, 6)
        XCTAssertEqual(Set(cuts.map(\.scale)), [1, 2, 4, 8])
        var failures: [String] = []
        for cut in cuts {
            let image = try finalPicture([try HighPrecisionReferences.bytes(cut)[...]], cut)
            if image?.width != cut.width || image?.height != cut.height || image?.format.channelCount != cut.channels
                || image.map({ Digest.sha256($0.pixels) }) != cut.sha256 {
                failures.append(describe(cut))
            }
        }
        XCTAssertEqual(failures, [])
    }

    func testEveryChunkingWithAndWithoutPreviewsGivesTheSamePicture() throws {
        let cuts = try HighPrecisionReferences.load().cuts.filter { $0.scale == 1 }
        XCTAssertEqual(cuts.count, 88)
        var failures: [String] = []
        for (number, cut) in cuts.enumerated() {
            let bytes = try HighPrecisionReferences.bytes(cut)
            for (chunking, pieces) in JPEGReferenceChecks.chunkings(bytes, seed: UInt64(number) &+ 0x5300) {
                // A preview after every 1-byte piece costs a redraw per byte: every fourth cut only.
                for previews in [false, true] where chunking != "1-byte" || !previews || number % 4 == 0 {
                    let image = try finalPicture(pieces, cut, previews: previews)
                    if image.map({ Digest.sha256($0.pixels) }) != cut.sha256 {
                        failures.append("\(describe(cut)) \(chunking) previews \(previews)")
                    }
                }
            }
        }
        XCTAssertEqual(failures, [])
    }

    func testPreviewAtEachScanBoundaryEqualsLibjpegTurboOnThePrefix() throws {
        // Fed up to and including the next SOS marker (its segment not parsed yet), a decoder has
        // every scan before it complete: its preview is libjpeg's picture of the file cut there.
        let cuts = try HighPrecisionReferences.load().cuts.filter { $0.kind == "boundary" }
        XCTAssertEqual(cuts.count, 152)
        var failures: [String] = []
        for cut in cuts {
            let file = try HighPrecisionReferences.bytes(cut.path)
            XCTAssertEqual(Array(file[cut.cut..<(cut.cut + 2)]), [0xFF, 0xDA])
            let decoder = JPEGDecoder(options: DecodingOptions(scale: try XCTUnwrap(ScaleFactor(rawValue: cut.scale))))
            for piece in Chunking.random(Array(file[..<(cut.cut + 2)]), seed: UInt64(cut.cut), maxSize: 300) {
                try decoder.feed(piece)
                _ = decoder.currentImage()
            }
            if decoder.currentImage().map({ Digest.sha256($0.pixels) }) != cut.sha256 { failures.append(describe(cut)) }
        }
        XCTAssertEqual(failures, [])
    }
}
