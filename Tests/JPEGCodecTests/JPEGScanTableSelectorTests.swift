import XCTest
import ImageCore
import JPEGCodec
import TestSupport

/// Huffman table selectors of a scan (T.81 B.2.3 Tdj, Taj) are checked only for the tables the
/// scan reads, as libjpeg's entropy decoders do (jdphuff.c builds no table for a DC refinement
/// scan): damage to an unused selector changes nothing.
final class JPEGScanTableSelectorTests: XCTestCase {
    private let path = "jpeg/generated/odd_17x33_422_progressive.jpg"

    /// Offsets of the SOS segments (at their 0xFF) with their Ss, Se and Ah.
    private func scans(_ bytes: [UInt8]) -> [(offset: Int, components: Int, ss: UInt8, se: UInt8, ah: UInt8)] {
        var found: [(Int, Int, UInt8, UInt8, UInt8)] = []
        var index = 2
        while index + 4 <= bytes.count {
            guard bytes[index] == 0xFF else { index += 1; continue }
            let marker = bytes[index + 1]
            if marker == 0x00 || marker == 0xFF || (0xD0...0xD8).contains(marker) { index += 1; continue }
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            if marker == 0xDA {
                let count = Int(bytes[index + 4])
                let parameters = index + 5 + 2 * count
                found.append((index, count, bytes[parameters], bytes[parameters + 1], bytes[parameters + 2] >> 4))
                index += 2 + length
                continue
            }
            index += 2 + length
        }
        return found
    }

    func testUnusedSelectorsOfADCRefinementScanAreIgnored() throws {
        var bytes = try JPEGCorpus.bytes(path)
        let expected = try JPEGDecoder().decode(bytes)
        let refinement = try XCTUnwrap(scans(bytes).first { $0.ss == 0 && $0.se == 0 && $0.ah > 0 })
        // Every component of the scan selects tables 13/11, which do not exist.
        for component in 0..<refinement.components { bytes[refinement.offset + 6 + 2 * component] = 0xDB }
        let decoder = JPEGDecoder()
        try decoder.feed(bytes)
        XCTAssertEqual(try decoder.finish(), expected)
        XCTAssertEqual(decoder.warnings, [])
    }

    func testAnACScanSelectingAMissingTableIsInvalidData() throws {
        var bytes = try JPEGCorpus.bytes(path)
        let acScan = try XCTUnwrap(scans(bytes).first { $0.ss > 0 })
        bytes[acScan.offset + 6] = 0x0A   // DC table 0 (unused here), AC table 10
        XCTAssertThrowsError(try JPEGDecoder().decode(bytes)) { error in
            let decodingError = error as? ImageDecodingError
            XCTAssertEqual(decodingError?.kind, .invalidData)
            XCTAssertEqual(decodingError?.offset, acScan.offset)
            XCTAssertTrue(decodingError?.message.contains("AC table 10; only 0...3 exist") == true, "\(String(describing: decodingError))")
        }
    }
}
