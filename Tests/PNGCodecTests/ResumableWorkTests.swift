import ImageCore
import PNGCodec
import TestSupport
import XCTest

/// O(n) work however the input is split: the bytes-examined counter.
final class ResumableWorkTests: XCTestCase {
    func testOneByteFeedingOfTheAdam7PhotoExaminesEachByteAConstantNumberOfTimes() throws {
        let entry = try XCTUnwrap(PNGTestSupport.decodableEntries().first { $0.path.hasSuffix("photo_900x600_adam7.png") })
        let bytes = try CorpusManifest.bytes(of: entry)

        let oneShot = PNGDecoder()
        try oneShot.feed(bytes)
        _ = try oneShot.finish()
        let oneShotExamined = oneShot.inputBytesExamined

        let decoder = PNGDecoder()
        var examinedAfterHalf = 0
        bytes.withUnsafeBytes { raw in
            for index in 0..<raw.count {
                _ = try? decoder.feed(UnsafeRawBufferPointer(rebasing: raw[index..<(index + 1)]))
                if index == raw.count / 2 { examinedAfterHalf = decoder.inputBytesExamined }
            }
        }
        let image = try decoder.finish()
        XCTAssertEqual(Digest.sha256(PNGTestSupport.referencePixels(image, referenceFormat: "rgba8")), entry.reference?.sha256)

        // Every byte is read by the chunk parser (CRC) and once more by the inflater: about 2n,
        // and exactly as much as the one-shot decode however small the pieces.
        let examined = decoder.inputBytesExamined
        XCTAssertGreaterThanOrEqual(examined, bytes.count)
        XCTAssertLessThanOrEqual(examined, 2 * bytes.count + 64, "examined \(examined) for \(bytes.count) bytes")
        XCTAssertLessThanOrEqual(examined, oneShotExamined + oneShotExamined / 100)
        // Linear along the way too: the first half costs about half.
        XCTAssertLessThanOrEqual(examinedAfterHalf, bytes.count + 64)
    }

    func testEveryCorpusFileExaminesBytesLinearlyHoweverItIsSplit() throws {
        for entry in try PNGTestSupport.decodableEntries() {
            let bytes = try CorpusManifest.bytes(of: entry)
            guard bytes.count < 300_000 else { continue }   // the photo has its own one-byte test above
            let whole = PNGDecoder()
            _ = try whole.decode(bytes)
            let split = PNGDecoder()
            for piece in Chunking.random(bytes, seed: UInt64(bytes.count), maxSize: 37) { try split.feed(piece) }
            _ = try split.finish()
            // The chunk parser reads each byte once; the inflater's fast loop counts 8 bytes per
            // refill (overlapping reads), so small pieces, which stop and restart it often, cost
            // more — but never more than the 8-byte refill width per byte of IDAT data.
            XCTAssertLessThanOrEqual(whole.inputBytesExamined, 9 * bytes.count, entry.path)
            XCTAssertGreaterThanOrEqual(whole.inputBytesExamined, bytes.count, entry.path)
            XCTAssertLessThanOrEqual(split.inputBytesExamined, 9 * bytes.count, entry.path)
        }
    }
}
