import XCTest
import ImageCore
import JPEGCodec
import TestSupport

/// Floods of scans without data.
final class JPEGProgressiveScanFloodTests: XCTestCase {
    /// testorig_progressive.jpg's headers with the frame enlarged to 2000×2000, then `count` copies of
    /// its first (DC) scan header with no entropy-coded data, then EOI.
    private func emptyScanFlood(count: Int) throws -> [UInt8] {
        var bytes = try JPEGCorpus.bytes("jpeg/generated/testorig_progressive.jpg")
        let markers = JPEGScanBoundaries.markerOffsets(in: bytes)
        let sos = markers[0]
        let sosLength = Int(bytes[sos + 2]) << 8 | Int(bytes[sos + 3])
        let scanHeader = Array(bytes[sos..<(sos + 2 + sosLength)])
        guard let sof = (0..<(sos - 1)).first(where: { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC2 }) else {
            throw XCTSkip("no SOF2")
        }
        bytes[sof + 5] = 0x07; bytes[sof + 6] = 0xD0   // height 2000
        bytes[sof + 7] = 0x07; bytes[sof + 8] = 0xD0   // width 2000
        var flood = Array(bytes[..<sos])
        for _ in 0..<count { flood += scanHeader }
        return flood + [0xFF, 0xD9]
    }

    func testEmptyScansAreCheapAndTheDefaultLimitStopsTheFlood() throws {
        let decoder = JPEGDecoder()
        XCTAssertThrowsError(try decoder.feed(try emptyScanFlood(count: 1001))) { error in
            XCTAssertEqual((error as? ImageDecodingError)?.kind, .limitExceeded)
        }
        XCTAssertEqual(decoder.status.progress?.completedScans, 1000)
        XCTAssertEqual(decoder.currentImage()?.width, 2000)
    }

    func testEmptyScansBelowTheLimitDecodeAsDataErrors() throws {
        let decoder = JPEGDecoder()
        try decoder.feed(try emptyScanFlood(count: 20))
        XCTAssertThrowsError(try decoder.finish()) { error in
            // The scans' data is missing: libjpeg's "premature end of data segment".
            XCTAssertEqual((error as? ImageDecodingError)?.kind, .invalidData)
        }
        XCTAssertEqual(decoder.status.progress?.completedScans, 20)
    }
}
