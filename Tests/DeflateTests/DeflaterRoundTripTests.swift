import XCTest
import Deflate
import TestSupport

/// Whatever ``Deflater`` writes inflates back to the input, with our ``Inflater`` and with the
/// independent ``ReferenceInflater``, for every level, format and kind of data.
final class DeflaterRoundTripTests: XCTestCase {
    static let levels = [0, 1, 6, 9]

    private func assertRoundTrip(_ input: [UInt8], format: DeflateFormat, level: Int, reference: Bool,
                                 _ label: String, file: StaticString = #filePath, line: UInt = #line) {
        let compressed = Deflater.compress(input, format: format, level: level)
        do {
            let back = try Inflater.decompress(compressed, format: format)
            XCTAssertTrue(back == input, "\(label) \(format) level \(level): Inflater output differs", file: file, line: line)
        } catch {
            XCTFail("\(label) \(format) level \(level): Inflater threw \(error)", file: file, line: line)
        }
        guard reference else { return }
        do {
            let back = try ReferenceInflater.inflate(compressed, format: format)
            XCTAssertTrue(back == input, "\(label) \(format) level \(level): reference output differs", file: file, line: line)
        } catch {
            XCTFail("\(label) \(format) level \(level): reference threw \(error)", file: file, line: line)
        }
    }

    func testEveryFixtureOutputRoundTripsAtLevels0_1_6_9() throws {
        let outputs = try DeflaterTestData.fixtureOutputs()
        XCTAssertGreaterThanOrEqual(outputs.count, 20)
        for (name, bytes) in outputs {
            for level in Self.levels {
                assertRoundTrip(bytes, format: .zlib, level: level, reference: bytes.count <= 150_000, name)
            }
        }
    }

    func testSmallFixtureOutputsRoundTripInRawAndGzip() throws {
        for (name, bytes) in try DeflaterTestData.fixtureOutputs(maxSize: 150_000) {
            for format in [DeflateFormat.raw, .gzip] {
                assertRoundTrip(bytes, format: format, level: 6, reference: true, name)
            }
        }
    }

    func testRandomDataRoundTripsAtEverySizeLevelAndFormat() {
        for size in [0, 1, 100, 70_000, 300_000] {
            let input = DeflaterTestData.random(size, seed: UInt64(size) + 1)
            for format in DeflateFormat.allCases {
                for level in Self.levels {
                    assertRoundTrip(input, format: format, level: level, reference: size <= 70_000, "random \(size)")
                }
            }
        }
    }

    func testRepetitiveDataRoundTripsAtEverySizeLevelAndFormat() {
        for size in [0, 1, 100, 70_000, 300_000] {
            let input = DeflaterTestData.repetitive(size, seed: UInt64(size) + 7)
            for format in DeflateFormat.allCases {
                for level in Self.levels {
                    assertRoundTrip(input, format: format, level: level, reference: true, "repetitive \(size)")
                }
            }
        }
    }

    func testEveryLevelRoundTripsMixedData() {
        let input = DeflaterTestData.repetitive(50_000, seed: 3) + DeflaterTestData.random(20_000, seed: 4)
            + DeflaterTestData.repetitive(50_000, seed: 5)
        for level in 0...9 {
            assertRoundTrip(input, format: .zlib, level: level, reference: true, "mixed")
        }
    }

    func testLongRunsOfOneByteRoundTrip() {
        // Runs longer than 258 (the longest match) and longer than the 32 KiB window.
        for length in [257, 258, 259, 516, 32_768, 32_769, 100_000] {
            let input = [UInt8](repeating: 0x5A, count: length) + [1, 2, 3]
            for level in Self.levels {
                assertRoundTrip(input, format: .zlib, level: level, reference: true, "run \(length)")
            }
        }
    }

    func testMatchesAtTheWindowEdgeRoundTrip() {
        // A random block repeated 32 767, 32 768 and 32 769 bytes later.
        let block = DeflaterTestData.random(300, seed: 11)
        for gap in [32_767 - 300, 32_768 - 300, 32_769 - 300] {
            let input = block + DeflaterTestData.random(gap, seed: 12) + block
            for level in [1, 9] {
                assertRoundTrip(input, format: .raw, level: level, reference: true, "gap \(gap)")
            }
        }
    }
}
