import XCTest
import Deflate
import TestSupport

/// ``StreamingDeflater``: any pieces in, a valid stream out; one band equals ``Deflater``'s
/// one-shot output; matches reach back across band edges.
final class StreamingDeflaterTests: XCTestCase {
    /// Feeds `input` in pieces of the given sizes (cycled), finishes, and collects the output
    /// `outputPiece` bytes per consume call.
    private func streamed(_ input: [UInt8], format: DeflateFormat, level: Int, bandSize: Int = StreamingDeflater.defaultBandSize,
                          pieces: [Int], outputPiece: Int = .max) -> [UInt8] {
        let deflater = StreamingDeflater(format: format, level: level, strategy: .default, bandSize: bandSize)
        var output: [UInt8] = []
        let collect = {
            deflater.consumeOutput { bytes in
                let used = min(bytes.count, outputPiece)
                output += bytes.prefix(used)
                return used
            }
        }
        var offset = 0, index = 0
        input.withUnsafeBytes { all in
            while offset < all.count {
                let size = min(pieces[index % pieces.count], all.count - offset)
                deflater.write(UnsafeRawBufferPointer(rebasing: all[offset..<(offset + size)]))
                offset += size
                index += 1
                collect()
            }
        }
        deflater.finish()
        while deflater.outputCount > 0 { collect() }
        return output
    }

    func testOneBandGivesExactlyTheOneShotStreamWhateverThePieces() throws {
        let input = DeflaterTestData.repetitive(200_000, seed: 3) + DeflaterTestData.random(30_000, seed: 4)
        for format in DeflateFormat.allCases {
            for level in [0, 1, 6, 9] {
                let expected = Deflater.compress(input, format: format, level: level)
                for pieces in [[1_000_000], [997], [4096, 1, 65_537]] {
                    XCTAssertEqual(streamed(input, format: format, level: level, pieces: pieces, outputPiece: 5000), expected,
                                   "\(format) level \(level) pieces \(pieces)")
                }
            }
        }
    }

    func testManyBandsRoundTripThroughBothInflaters() throws {
        let input = DeflaterTestData.repetitive(500_000, seed: 11) + DeflaterTestData.random(150_000, seed: 12)
        for format in DeflateFormat.allCases {
            for level in [0, 1, 2, 4, 6, 9] {
                let stream = streamed(input, format: format, level: level, bandSize: 1 << 16, pieces: [100_003, 17, 70_000])
                XCTAssertEqual(try Inflater.decompress(stream, format: format), input, "\(format) level \(level)")
                XCTAssertEqual(try ReferenceInflater.inflate(stream, format: format), input, "\(format) level \(level) reference")
            }
        }
    }

    func testMatchesReachBackAcrossBandEdges() throws {
        // 20 KB of noise repeated 30 times over 64 KiB bands: only matches into the previous
        // band's last 32 KiB can avoid storing the noise again in each of the ~9 bands.
        let block = DeflaterTestData.random(20_000, seed: 5)
        let input = Array((0..<30).map { _ in block }.joined())
        for level in [1, 6] {
            let stream = streamed(input, format: .zlib, level: level, bandSize: 1 << 16, pieces: [4096])
            XCTAssertEqual(try Inflater.decompress(stream, format: .zlib), input)
            XCTAssertLessThan(stream.count, 2 * block.count, "level \(level): \(stream.count) bytes")
        }
    }

    func testInPlaceWritesAndPiecesLargerThanABand() throws {
        let input = DeflaterTestData.repetitive(400_000, seed: 21)
        let deflater = StreamingDeflater(format: .gzip, level: 6, bandSize: 1 << 16)
        input.withUnsafeBytes { all in
            // 150 000 bytes in one in-place write: more than two bands.
            guard let base = all.baseAddress else { return XCTFail("no input") }
            deflater.write(count: 150_000) { $0.copyMemory(from: base, byteCount: 150_000) }
            deflater.write(UnsafeRawBufferPointer(rebasing: all[150_000...]))
        }
        deflater.finish()
        var stream: [UInt8] = []
        deflater.consumeOutput { stream += $0; return $0.count }
        XCTAssertEqual(deflater.outputCount, 0)
        XCTAssertEqual(try Inflater.decompress(stream, format: .gzip), input)
    }

    func testWritesAfterFinishAreIgnoredAndFinishIsIdempotent() throws {
        let input = Array("hello, hello, hello".utf8)
        let deflater = StreamingDeflater(format: .zlib, level: 6)
        input.withUnsafeBytes { deflater.write($0) }
        deflater.finish()
        let count = deflater.outputCount
        input.withUnsafeBytes { deflater.write($0) }
        deflater.finish()
        XCTAssertTrue(deflater.isFinished)
        XCTAssertEqual(deflater.outputCount, count)
        var stream: [UInt8] = []
        deflater.consumeOutput { stream += $0; return $0.count }
        XCTAssertEqual(stream, Deflater.compress(input, format: .zlib, level: 6))
    }

    func testAnEmptyStreamIsTheOneShotEmptyStream() {
        for format in DeflateFormat.allCases {
            for level in [0, 1, 6] {
                XCTAssertEqual(streamed([], format: format, level: level, pieces: [1]), Deflater.compress([], format: format, level: level))
            }
        }
    }
}
