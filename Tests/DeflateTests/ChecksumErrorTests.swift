import XCTest
import Deflate
import TestSupport

/// Adler-32 (RFC 1950 2.2), gzip CRC-32 and ISIZE (RFC 1952 2.3.1) and the gzip header CRC
/// (FHCRC) are verified by default and can be switched off.
final class ChecksumErrorTests: XCTestCase {
    private let noVerification = InflateOptions(verifyChecksums: false)

    private func corrupted(_ name: String, at offsetFromEnd: Int) throws -> (bytes: [UInt8], fixture: DeflateFixture) {
        let fixture = try DeflateFixture.named(name)
        var bytes = try fixture.bytes()
        bytes[bytes.count - offsetFromEnd] ^= 0x01
        return (bytes, fixture)
    }

    private func corruptedAtStart(_ name: String, at offset: Int) throws -> (bytes: [UInt8], fixture: DeflateFixture) {
        let fixture = try DeflateFixture.named(name)
        var bytes = try fixture.bytes()
        bytes[offset] ^= 0x01
        return (bytes, fixture)
    }

    private func assertAcceptedWithoutVerification(_ bytes: [UInt8], _ fixture: DeflateFixture,
                                                   file: StaticString = #filePath, line: UInt = #line) {
        let run = InflateHarness.run(bytes, format: fixture.format, options: noVerification)
        XCTAssertNil(run.error, file: file, line: line)
        XCTAssertEqual(Digest.sha256(run.output), fixture.sha256, file: file, line: line)
    }

    func testWrongAdler32IsChecksumMismatch() throws {
        let (bytes, _) = try corrupted("text_level6.zlib", at: 1)
        assertInflateFails(bytes, format: .zlib, kind: .checksumMismatch, offsets: (bytes.count - 4)...bytes.count)
    }

    func testWrongAdler32IsAcceptedWithoutVerification() throws {
        let (bytes, fixture) = try corrupted("text_level6.zlib", at: 1)
        assertAcceptedWithoutVerification(bytes, fixture)
    }

    func testWrongAdler32OfAnEmptyStreamIsChecksumMismatch() throws {
        let (bytes, _) = try corrupted("empty_level6.zlib", at: 4)
        assertInflateFails(bytes, format: .zlib, kind: .checksumMismatch, offsets: (bytes.count - 4)...bytes.count)
    }

    func testWrongGzipCRC32IsChecksumMismatch() throws {
        let (bytes, _) = try corrupted("gzip_plain.gz", at: 8)
        assertInflateFails(bytes, format: .gzip, kind: .checksumMismatch, offsets: (bytes.count - 8)...(bytes.count - 4))
    }

    func testWrongGzipCRC32IsAcceptedWithoutVerification() throws {
        let (bytes, fixture) = try corrupted("gzip_plain.gz", at: 8)
        assertAcceptedWithoutVerification(bytes, fixture)
    }

    func testWrongCRC32OfTheSecondGzipMemberIsChecksumMismatch() throws {
        let (bytes, _) = try corrupted("gzip_two_members.gz", at: 5)
        assertInflateFails(bytes, format: .gzip, kind: .checksumMismatch, offsets: (bytes.count - 8)...(bytes.count - 4))
    }

    func testWrongGzipHeaderCRCIsChecksumMismatch() throws {
        // gzip_fhcrc.gz has only FHCRC: the CRC16 sits at bytes 10–11 (RFC 1952 2.3.1).
        let (bytes, _) = try corruptedAtStart("gzip_fhcrc.gz", at: 10)
        assertInflateFails(bytes, format: .gzip, kind: .checksumMismatch, offsets: 10...12)
    }

    func testWrongGzipHeaderCRCIsAcceptedWithoutVerification() throws {
        let (bytes, fixture) = try corruptedAtStart("gzip_fhcrc.gz", at: 10)
        assertAcceptedWithoutVerification(bytes, fixture)
    }

    func testHeaderCRCCoversEveryHeaderField() throws {
        // Changing a byte of the file name in gzip_all_fields.gz breaks the header CRC.
        let fixture = try DeflateFixture.named("gzip_all_fields.gz")
        var bytes = try fixture.bytes()
        // 10 fixed bytes, XLEN (2) + 10 bytes of FEXTRA, then FNAME "café.txt".
        XCTAssertEqual(bytes[22], UInt8(ascii: "c"))
        bytes[22] = UInt8(ascii: "k")
        assertInflateFails(bytes, format: .gzip, kind: .checksumMismatch)
        let run = InflateHarness.run(bytes, format: .gzip, options: noVerification)
        XCTAssertNil(run.error)
        XCTAssertEqual(Digest.sha256(run.output), fixture.sha256)
    }

    func testWrongISIZEIsLengthMismatch() throws {
        let (bytes, _) = try corrupted("gzip_plain.gz", at: 1)
        assertInflateFails(bytes, format: .gzip, kind: .lengthMismatch, offsets: (bytes.count - 4)...bytes.count)
    }

    func testWrongISIZEIsAcceptedWithoutVerification() throws {
        let (bytes, fixture) = try corrupted("gzip_plain.gz", at: 1)
        assertAcceptedWithoutVerification(bytes, fixture)
    }

    func testHandMadeStreamWithWrongAdlerIsCaughtAfterDeliveringItsOutput() {
        var w = TestBitWriter()
        w.blockHeader(final: true, type: 0)
        w.append([3, 0, 0xFC, 0xFF, 1, 2, 3])
        let stream = StreamWrapping.zlib(w.finished, output: [1, 2, 4])
        let run = InflateHarness.run(stream, format: .zlib)
        XCTAssertEqual(run.inflateError?.kind, .checksumMismatch)
        XCTAssertEqual(run.output, [1, 2, 3])
    }
}
