import XCTest
import Deflate
import TestSupport

/// The framing, sizes and determinism of ``Deflater`` output.
final class DeflaterFormatTests: XCTestCase {
    private let text = Array(String(repeating: "The stream is split into blocks; each block is coded on its own. ", count: 400).utf8)

    func testZlibHeaderAnnouncesTheLevelAndPassesItsCheck() {
        let expected: [Int: UInt8] = [0: 0x01, 1: 0x01, 2: 0x5E, 5: 0x5E, 6: 0x9C, 7: 0xDA, 9: 0xDA]
        for (level, flg) in expected {
            let stream = Deflater.compress(text, level: level)
            XCTAssertEqual(Array(stream.prefix(2)), [0x78, flg], "level \(level)")
            XCTAssertEqual((Int(stream[0]) << 8 | Int(stream[1])) % 31, 0, "level \(level)")
        }
    }

    func testZlibTrailerIsTheAdler32BigEndian() {
        let stream = Deflater.compress(text)
        let adler = Adler32.checksum(text)
        XCTAssertEqual(Array(stream.suffix(4)), [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: adler >> UInt32($0)) })
    }

    func testGzipHasAPlainHeaderAndCRC32AndISIZETrailer() {
        let stream = Deflater.compress(text, format: .gzip, level: 9)
        XCTAssertEqual(Array(stream.prefix(10)), [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 2, 0xFF])
        let crc = CRC32.checksum(text)
        let size = UInt32(text.count)
        XCTAssertEqual(Array(stream.suffix(8)), [0, 8, 16, 24].map { UInt8(truncatingIfNeeded: crc >> UInt32($0)) }
                       + [0, 8, 16, 24].map { UInt8(truncatingIfNeeded: size >> UInt32($0)) })
    }

    func testRawIsTheZlibBodyWithoutWrapper() {
        for level in [0, 1, 6, 9] {
            let zlib = Deflater.compress(text, format: .zlib, level: level)
            let raw = Deflater.compress(text, format: .raw, level: level)
            XCTAssertEqual(raw, Array(zlib[2..<(zlib.count - 4)]), "level \(level)")
        }
    }

    func testLevel0StoresWithFiveBytesPerBlockOf65535() {
        for size in [0, 1, 65_535, 65_536, 200_000] {
            let input = DeflaterTestData.repetitive(size, seed: 1)
            let blocks = max(1, (size + 65_534) / 65_535)
            XCTAssertEqual(Deflater.compress(input, format: .raw, level: 0).count, size + 5 * blocks, "size \(size)")
            XCTAssertEqual(Deflater.compress(input, format: .zlib, level: 0).count, 2 + size + 5 * blocks + 4, "size \(size)")
            XCTAssertEqual(Deflater.compress(input, format: .gzip, level: 0).count, 10 + size + 5 * blocks + 8, "size \(size)")
        }
    }

    func testEmptyInputGivesTheShortestStreams() {
        // One empty final fixed block is 10 bits: 03 00.
        XCTAssertEqual(Deflater.compress([], format: .raw, level: 6), [0x03, 0x00])
        XCTAssertEqual(Deflater.compress([], format: .zlib, level: 6), [0x78, 0x9C, 0x03, 0x00, 0, 0, 0, 1])
        XCTAssertEqual(Deflater.compress([], format: .raw, level: 0), [0x01, 0x00, 0x00, 0xFF, 0xFF])
    }

    func testOutputIsDeterministic() {
        let input = DeflaterTestData.repetitive(100_000, seed: 9)
        for level in [1, 6, 9] {
            XCTAssertEqual(Deflater.compress(input, level: level), Deflater.compress(input, level: level))
        }
    }

    func testLevelsOutsideZeroToNineAreClamped() {
        XCTAssertEqual(Deflater.compress(text, level: -5), Deflater.compress(text, level: 0))
        XCTAssertEqual(Deflater.compress(text, level: 42), Deflater.compress(text, level: 9))
    }

    func testDefaultIsZlibAtLevel6() {
        XCTAssertEqual(Deflater.compress(text), Deflater.compress(text, format: .zlib, level: 6))
        XCTAssertEqual(Deflater.defaultLevel, 6)
    }

    func testTextShrinksAtEveryLevelAbove0() throws {
        let fixtureText = try Inflater.decompress(try DeflateFixture.named("text_level6.zlib").bytes())
        for level in 1...9 {
            let size = Deflater.compress(fixtureText, level: level).count
            XCTAssertLessThan(size, fixtureText.count / 2, "level \(level)")
        }
    }

    func testHigherLevelsAreNotLargerOnText() throws {
        let fixtureText = try Inflater.decompress(try DeflateFixture.named("text_level6.zlib").bytes())
        let sizes = [1, 6, 9].map { Deflater.compress(fixtureText, level: $0).count }
        XCTAssertEqual(sizes, sizes.sorted(by: >), "sizes \(sizes)")
    }

    func testAMegabyteOfZerosShrinksToAboutAKilobyte() {
        let zeros = [UInt8](repeating: 0, count: 1 << 20)
        XCTAssertLessThan(Deflater.compress(zeros, level: 6).count, 1_200)
        XCTAssertLessThan(Deflater.compress(zeros, level: 1).count, 6_000)
    }

    func testIncompressibleDataFallsBackToStoredBlocks() {
        let input = DeflaterTestData.random(70_000, seed: 5)
        for level in [1, 6, 9] {
            // Each block of ≤ 16 Ki tokens is stored: 5 bytes of header per block at most.
            let size = Deflater.compress(input, format: .raw, level: level).count
            XCTAssertLessThanOrEqual(size, input.count + 5 * 6, "level \(level)")
        }
    }

    func testCompressesTextWithin10PercentOfZlib() throws {
        // text_level6.zlib / text_level9.zlib were written by zlib at those levels.
        for level in [6, 9] {
            let zlibStream = try DeflateFixture.named("text_level\(level).zlib").bytes()
            let input = try Inflater.decompress(zlibStream)
            let ours = Deflater.compress(input, level: level).count
            XCTAssertLessThanOrEqual(Double(ours), 1.10 * Double(zlibStream.count), "level \(level): \(ours) vs \(zlibStream.count)")
        }
    }

    func testCompressesPhotoPixelsWithin10PercentOfZlib() throws {
        // The PNG's IDAT stream was written by zlib at level 9 (FLG 0xDA).
        let zlibStream = try DeflateFixture.named("png_rgba16_photo.zlib").bytes()
        XCTAssertEqual(zlibStream[1], 0xDA)
        let input = try Inflater.decompress(zlibStream)
        let ours = Deflater.compress(input, level: 9).count
        XCTAssertLessThanOrEqual(Double(ours), 1.10 * Double(zlibStream.count), "\(ours) vs \(zlibStream.count)")
    }
}
