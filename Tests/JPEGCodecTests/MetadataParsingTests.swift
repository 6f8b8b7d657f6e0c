import XCTest
import ImageCore
@testable import JPEGCodec

/// Exif orientation and ICC chunk parsing on hand-made segments.
final class MetadataParsingTests: XCTestCase {
    /// An APP1 payload: "Exif\0\0" + TIFF header + IFD0 with the given entries (tag, type, count, value).
    private func exif(littleEndian: Bool, entries: [(UInt16, UInt16, UInt32, UInt16)]) -> [UInt8] {
        func u16(_ v: UInt16) -> [UInt8] { littleEndian ? [UInt8(v & 0xFF), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 0xFF)] }
        func u32(_ v: UInt32) -> [UInt8] { littleEndian ? u16(UInt16(v & 0xFFFF)) + u16(UInt16(v >> 16)) : u16(UInt16(v >> 16)) + u16(UInt16(v & 0xFFFF)) }
        var bytes: [UInt8] = Array("Exif".utf8) + [0, 0] + (littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]) + u16(42) + u32(8)
        bytes += u16(UInt16(entries.count))
        for (tag, type, count, value) in entries { bytes += u16(tag) + u16(type) + u32(count) + u16(value) + [0, 0] }
        return bytes + u32(0)
    }

    private func orientation(_ payload: [UInt8]) -> Orientation? {
        payload.withUnsafeBytes { APPSegmentInfo.exifOrientation($0) }
    }

    func testOrientationIsFoundAfterOtherTagsInBothByteOrders() {
        for littleEndian in [true, false] {
            let payload = exif(littleEndian: littleEndian, entries: [(0x010F, 2, 4, 0), (0x0112, 3, 1, 8)])
            XCTAssertEqual(orientation(payload), .left)
        }
    }

    func testMalformedExifGivesNoOrientation() {
        XCTAssertNil(orientation(exif(littleEndian: true, entries: [(0x0112, 3, 1, 9)])))      // out of range
        XCTAssertNil(orientation(exif(littleEndian: true, entries: [(0x0112, 4, 1, 6)])))      // wrong type
        var badOrder = exif(littleEndian: true, entries: [(0x0112, 3, 1, 6)])
        badOrder[6] = 0x58                                                                    // not II or MM
        XCTAssertNil(orientation(badOrder))
        XCTAssertNil(orientation(Array(exif(littleEndian: false, entries: [(0x0112, 3, 1, 6)]).prefix(20))))  // cut short
    }

    private func chunk(_ sequence: UInt8, of count: UInt8, _ data: [UInt8]) -> [UInt8] {
        Array("ICC_PROFILE".utf8) + [0, sequence, count] + data
    }

    private func assemble(_ chunks: [[UInt8]], limit: Int = 1000) throws -> [UInt8]? {
        var assembler = ICCProfileAssembler()
        for c in chunks {
            XCTAssertTrue(c.withUnsafeBytes { ICCProfileAssembler.isICCChunk($0) })
            try c.withUnsafeBytes { try assembler.add($0, limit: limit, at: 0) }
        }
        return assembler.profile
    }

    func testICCChunksReassembleInSequenceOrderWhateverTheirArrivalOrder() throws {
        XCTAssertEqual(try assemble([chunk(2, of: 3, [4, 5]), chunk(1, of: 3, [1, 2, 3]), chunk(3, of: 3, [6])]), [1, 2, 3, 4, 5, 6])
    }

    func testInconsistentICCChunksGiveNoProfile() throws {
        XCTAssertNil(try assemble([chunk(1, of: 2, [1])]))                         // one missing
        XCTAssertNil(try assemble([chunk(1, of: 2, [1]), chunk(1, of: 2, [2])]))   // duplicate
        XCTAssertNil(try assemble([chunk(1, of: 2, [1]), chunk(2, of: 3, [2])]))   // counts differ
        XCTAssertNil(try assemble([chunk(0, of: 1, [1])]))                         // sequence 0
    }

    func testICCBeyondTheLimitThrowsLimitExceeded() {
        XCTAssertThrowsError(try assemble([chunk(1, of: 1, [UInt8](repeating: 7, count: 40))], limit: 39)) { error in
            XCTAssertEqual((error as? ImageDecodingError)?.kind, .limitExceeded)
        }
    }

    func testAdobeTransformAndJFIFAreRecognised() {
        let adobe: [UInt8] = Array("Adobe".utf8) + [0, 100, 0, 0, 0, 0, 2]
        XCTAssertEqual(adobe.withUnsafeBytes { APPSegmentInfo.adobeTransform($0) }, 2)
        let jfif: [UInt8] = Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
        XCTAssertTrue(jfif.withUnsafeBytes { APPSegmentInfo.isJFIF($0) })
        XCTAssertEqual(JPEGColorSpace.infer(componentIDs: [0x52, 0x47, 0x42], sawJFIF: false, adobeTransform: nil), .rgb)
        XCTAssertEqual(JPEGColorSpace.infer(componentIDs: [0x52, 0x47, 0x42], sawJFIF: true, adobeTransform: nil), .yCbCr)
        XCTAssertEqual(JPEGColorSpace.infer(componentIDs: [1, 2, 3, 4], sawJFIF: false, adobeTransform: 2), .ycck)
        XCTAssertEqual(JPEGColorSpace.infer(componentIDs: [1, 2, 3, 4], sawJFIF: false, adobeTransform: nil), .cmyk)
    }
}
