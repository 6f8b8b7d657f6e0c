import XCTest
import Deflate
import TestSupport

/// Whatever ``Deflater`` writes inflates back to the input, with our ``Inflater`` and with the
/// independent ``ReferenceInflater``, for every level, format and kind of data.
final class DeflaterRoundTripTests: XCTestCase {
    static let levels = [0, 1, 6, 9]

    private func assertRoundTrip(_ input: [UInt8], format: DeflateFormat, level: Int, strategy: DeflateStrategy = .default,
                                 reference: Bool, _ label: String, file: StaticString = #filePath, line: UInt = #line) {
        let compressed = Deflater.compress(input, format: format, level: level, strategy: strategy)
        let label = "\(label) \(strategy)"
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

    func testEveryLevelAndStrategyRoundTripsMixedAndFilteredRowData() {
        let mixed = DeflaterTestData.repetitive(50_000, seed: 3) + DeflaterTestData.random(20_000, seed: 4)
            + DeflaterTestData.repetitive(50_000, seed: 5)
        // PNG-filtered-like rows: small signed residuals, the data `.filtered` is for.
        var rng = SeededGenerator(seed: 21)
        let residuals = (0..<90_000).map { _ in UInt8(truncatingIfNeeded: Int.random(in: -3...3, using: &rng)) }
        for level in 0...9 {
            for strategy in [DeflateStrategy.default, .filtered] {
                assertRoundTrip(mixed, format: .zlib, level: level, strategy: strategy, reference: true, "mixed")
                assertRoundTrip(residuals, format: .zlib, level: level, strategy: strategy, reference: true, "residuals")
            }
        }
    }

    func testTinyInputsRoundTripAtTheFastLevelAroundItsEightByteTail() {
        // Level 1 loads 8 bytes per position: inputs of 0–24 bytes end inside or just past that.
        for size in 0...24 {
            for strategy in [DeflateStrategy.default, .filtered] {
                let run = [UInt8](repeating: 7, count: size)
                let mixed = (0..<size).map { UInt8(truncatingIfNeeded: $0 % 5) }
                assertRoundTrip(run, format: .raw, level: 1, strategy: strategy, reference: true, "run \(size)")
                assertRoundTrip(mixed, format: .zlib, level: 1, strategy: strategy, reference: true, "mixed \(size)")
            }
        }
    }

    func testFastLevelRoundTripsAcrossSeveralOfItsLargeBlocksAndTheWindowEdge() {
        // More than 65 536 tokens (level 1's block) of literals, then repeats 32 768 ± 1 back.
        let noise = DeflaterTestData.random(150_000, seed: 31)
        let block = DeflaterTestData.random(300, seed: 32)
        for strategy in [DeflateStrategy.default, .filtered] {
            assertRoundTrip(noise + DeflaterTestData.repetitive(40_000, seed: 33), format: .zlib, level: 1,
                            strategy: strategy, reference: false, "blocks")
            for gap in [32_767 - 300, 32_768 - 300, 32_769 - 300] {
                let input = block + DeflaterTestData.random(gap, seed: 12) + block
                assertRoundTrip(input, format: .raw, level: 1, strategy: strategy, reference: true, "gap \(gap)")
            }
        }
    }

    func testFilteredStrategyCodesSmallResidualsInUnderThreeBitsPerByte() {
        var rng = SeededGenerator(seed: 5)
        let residuals = (0..<60_000).map { _ in UInt8(truncatingIfNeeded: Int.random(in: -2...2, using: &rng)) }
        for level in [1, 6, 9] {
            // Five equally likely values: a Huffman code of lengths 2, 2, 2, 3, 3 needs 2.4 bits a byte.
            let filtered = Deflater.compress(residuals, level: level, strategy: .filtered).count
            XCTAssertLessThan(filtered, 60_000 * 3 / 8, "level \(level)")
            XCTAssertGreaterThan(filtered, 60_000 * 23 / 80, "level \(level): below the entropy, impossible")
        }
    }
}
