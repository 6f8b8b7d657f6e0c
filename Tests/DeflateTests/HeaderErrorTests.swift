import XCTest
import Deflate
import TestSupport

/// zlib (RFC 1950 2.2) and gzip (RFC 1952 2.3) header checks.
final class HeaderErrorTests: XCTestCase {
    /// A valid raw body: one final fixed block holding "a".
    private var body: [UInt8] {
        var w = TestBitWriter()
        w.blockHeader(final: true, type: 1)
        w.fixedLiteralLength(Int(UInt8(ascii: "a")))
        w.fixedLiteralLength(256)
        return w.finished
    }

    func testHandMadeBodyIsValidWhenWrapped() {
        let run = InflateHarness.run(StreamWrapping.zlib(body, output: [0x61]), format: .zlib)
        XCTAssertNil(run.error)
        XCTAssertEqual(run.output, [0x61])
    }

    func testZlibCheckBitsNotAMultipleOf31AreInvalidHeader() {
        var stream = StreamWrapping.zlib(body, output: [0x61])
        stream[1] = 0x9D   // 0x789D % 31 != 0
        assertInflateFails(stream, format: .zlib, kind: .invalidHeader, offsets: 0...1)
    }

    func testZlibMethodOtherThan8IsInvalidHeader() {
        // CMF 0x77: CM 7, with FLG chosen so that only the method is wrong.
        var flg = 0
        while (0x77 << 8 | flg) % 31 != 0 { flg += 1 }
        let stream = [0x77, UInt8(flg)] + body + [0, 0x62, 0, 0x62]
        assertInflateFails(stream, format: .zlib, kind: .invalidHeader, offsets: 0...1)
    }

    func testZlibWindowOver32KiBIsInvalidHeader() {
        // CINFO 8 means a 64 KiB window, not allowed (RFC 1950 2.2).
        var flg = 0
        while (0x88 << 8 | flg) % 31 != 0 { flg += 1 }
        assertInflateFails([0x88, UInt8(flg)] + body + [0, 0x62, 0, 0x62], format: .zlib, kind: .invalidHeader,
                           offsets: 0...1)
    }

    func testZlibPresetDictionaryIsReportedAsUnsupported() {
        // FLG 0x20: FDICT set; 0x7820 is a multiple of 31. DICTID follows.
        let stream: [UInt8] = [0x78, 0x20, 0x12, 0x34, 0x56, 0x78] + body + [0, 0x62, 0, 0x62]
        assertInflateFails(stream, format: .zlib, kind: .presetDictionaryUnsupported, offsets: 0...6)
    }

    func testPNGWithPresetDictionaryIsReportedAsUnsupported() throws {
        // The corpus PNG whose IDAT stream asks for a preset dictionary.
        let png = try Fixtures.bytes("corpus/png/extras/zlib_preset_dictionary.png")
        var stream: [UInt8] = []
        var position = 8
        while position + 8 <= png.count {
            let length = Int(png[position]) << 24 | Int(png[position + 1]) << 16 | Int(png[position + 2]) << 8 | Int(png[position + 3])
            if png[(position + 4)..<(position + 8)].elementsEqual("IDAT".utf8) {
                stream += png[(position + 8)..<(position + 8 + length)]
            }
            position += 12 + length
        }
        XCTAssertEqual(stream[1] & 0x20, 0x20)
        assertInflateFails(stream, format: .zlib, kind: .presetDictionaryUnsupported, offsets: 0...6)
    }

    func testGzipWrongMagicIsInvalidHeader() {
        var stream = StreamWrapping.gzip(body, output: [0x61])
        stream[1] = 0x8C
        assertInflateFails(stream, format: .gzip, kind: .invalidHeader, offsets: 0...1)
    }

    func testGzipMethodOtherThan8IsInvalidHeader() {
        var stream = StreamWrapping.gzip(body, output: [0x61])
        stream[2] = 7
        assertInflateFails(stream, format: .gzip, kind: .invalidHeader, offsets: 2...2)
    }

    func testGzipReservedFlagBitsAreInvalidHeader() {
        var stream = StreamWrapping.gzip(body, output: [0x61])
        stream[3] = 0x20   // FLG bit 5 is reserved and must be zero (RFC 1952 2.3.1.2)
        assertInflateFails(stream, format: .gzip, kind: .invalidHeader, offsets: 3...3)
    }

    func testEmptyInputIsTruncatedForEveryFormat() {
        for format in DeflateFormat.allCases {
            let run = InflateHarness.run([UInt8](), format: format)
            XCTAssertEqual(run.inflateError?.kind, .truncated, "\(format)")
            XCTAssertEqual(run.inflateError?.offset, 0, "\(format)")
        }
    }
}
