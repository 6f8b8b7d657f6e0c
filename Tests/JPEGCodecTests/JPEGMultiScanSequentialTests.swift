import XCTest
import ImageCore
import JPEGCodec
import TestSupport

/// Sequential files whose components come in several scans, one of them coded twice, whole, cut and
/// damaged: djpeg's picture (`TestImages/jpeg-extra/multiscan/make_multiscan_references.py`) however
/// the bytes arrive and whether or not a preview is drawn after every piece.
final class JPEGMultiScanSequentialTests: XCTestCase {
    struct Case: Decodable {
        var file: String
        var skip: Int
        var keep: Int?
        var error: String?
        var errorOffset: Int?
        var width: Int
        var height: Int
        var sha256: String
    }

    struct References: Decodable { var cases: [Case] }

    private func references() throws -> [Case] {
        try JSONDecoder().decode(References.self, from: Data(contentsOf: Fixtures.url("jpeg-extra/multiscan/references.json"))).cases
    }

    /// Feeds `pieces`, drawing a preview after each when `previews`, then finishes; returns the error
    /// thrown (nil for none) and the last picture.
    private func decode(_ pieces: [ArraySlice<UInt8>], previews: Bool,
                        scale: ScaleFactor = .full) -> (ImageDecodingError?, Image?) {
        let decoder = JPEGDecoder(options: DecodingOptions(scale: scale))
        do {
            for piece in pieces {
                try decoder.feed(piece)
                if previews { _ = decoder.currentImage() }
            }
            _ = try decoder.finish()
            return (nil, decoder.currentImage())
        } catch {
            return (error as? ImageDecodingError, decoder.currentImage())
        }
    }

    private func chunkings(of bytes: [UInt8], fuzzSeed: UInt32?) -> [(String, [ArraySlice<UInt8>])] {
        var ways: [(String, [ArraySlice<UInt8>])] = [("whole", [bytes[...]]), ("1-byte", Chunking.fixed(bytes, size: 1)),
                                                      ("7-byte", Chunking.fixed(bytes, size: 7)),
                                                      ("4096-byte", Chunking.fixed(bytes, size: 4096)),
                                                      ("random", Chunking.random(bytes, seed: 12, maxSize: 300))]
        if let fuzzSeed {
            ways.append(("fuzz pieces", fuzzPieces(seed: fuzzSeed, count: bytes.count).map { bytes[$0] }))
        }
        return ways
    }

    func testEveryCaseGivesDjpegsPictureAndTheErrorForEveryChunkingWithAndWithoutPreviews() throws {
        let cases = try references()
        XCTAssertEqual(cases.count, 10)
        for reference in cases {
            let file = try Fixtures.bytes("jpeg-extra/multiscan/" + reference.file)
            let seed = reference.skip == 2 ? UInt32(file[0]) << 8 | UInt32(file[1]) : nil
            var bytes = Array(file[reference.skip...])
            if let keep = reference.keep { bytes = Array(bytes[..<keep]) }
            for (name, pieces) in chunkings(of: bytes, fuzzSeed: seed) {
                for previews in [false, true] {
                    let label = "\(reference.file) keep \(reference.keep.map(String.init) ?? "all"), \(name), previews \(previews)"
                    let (error, picture) = decode(pieces, previews: previews)
                    XCTAssertEqual(error?.kind.rawValue, reference.error, label)
                    XCTAssertEqual(error?.offset, reference.errorOffset, label)
                    let image = try XCTUnwrap(picture, label)
                    XCTAssertEqual(image.width, reference.width, label)
                    XCTAssertEqual(image.height, reference.height, label)
                    XCTAssertEqual(Digest.sha256(image.pixels), reference.sha256, label)
                }
            }
        }
    }

    /// The fuzz findings' bad scan headers change nothing: the picture is the one the file cut before
    /// them (with EOI) gives.
    func testAScanHeaderThatFailsLeavesThePictureAsItWas() throws {
        for (file, sos) in [("fuzz_multiscan_4_scans.bin", 7972), ("fuzz_multiscan_10_scans.bin", 4994)] {
            let bytes = Array(try Fixtures.bytes("jpeg-extra/multiscan/" + file).dropFirst(2))
            let before = JPEGDecoder()
            try before.feed(bytes[..<sos] + [0xFF, 0xD9])   // EOI
            let decoder = JPEGDecoder()
            XCTAssertThrowsError(try decoder.feed(bytes)) { XCTAssertEqual(($0 as? ImageDecodingError)?.kind, .invalidData, file) }
            XCTAssertEqual(Digest.sha256(decoder.currentImage()?.pixels ?? []), Digest.sha256(before.currentImage()?.pixels ?? [1]), file)
        }
    }

    /// As the fuzz target checks: at 1/4 scale too, the fuzz pieces with previews give the last
    /// picture and error of the whole file.
    func testFuzzFindingsAgreeWholeAndInTheirPiecesAtQuarterScale() throws {
        for file in ["fuzz_multiscan_4_scans.bin", "fuzz_multiscan_10_scans.bin"] {
            let input = try Fixtures.bytes("jpeg-extra/multiscan/" + file)
            let bytes = Array(input.dropFirst(2))
            let pieces = fuzzPieces(seed: UInt32(input[0]) << 8 | UInt32(input[1]), count: bytes.count).map { bytes[$0] }
            let whole = decode([bytes[...]], previews: false, scale: .quarter)
            let split = decode(pieces, previews: true, scale: .quarter)
            XCTAssertEqual(whole.0?.kind, .invalidData, file)
            XCTAssertEqual(split.0?.kind, .invalidData, file)
            XCTAssertEqual(whole.1?.width, split.1?.width, file)
            XCTAssertEqual(Digest.sha256(whole.1?.pixels ?? []), Digest.sha256(split.1?.pixels ?? [1]), file)
        }
    }
}
