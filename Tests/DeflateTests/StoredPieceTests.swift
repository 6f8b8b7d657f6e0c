import XCTest
import Deflate
import TestSupport

/// Pieces of 1–7 bytes inside a stored block are copied straight into the window (no state
/// machine) and reach the sink once 1 KiB waits. Every byte fed inside a block determines one
/// output byte, so `totalOut` must follow the input exactly; each block's last byte still goes
/// through the state machine, so the stream end comes with the stream's last byte. Streams are
/// built here: stored blocks of 0, 1, 2, 7, 1000 and 65 535 bytes, over 600 KB in all, so the
/// inflater's 256 KiB window slides while bytes arrive one at a time.
final class StoredPieceTests: XCTestCase {
    /// A raw stream of stored blocks of `lengths` over seeded random bytes, the payload, and for
    /// each count of stream bytes fed, how many output bytes they determine.
    private struct StoredStream {
        var bytes: [UInt8] = []
        var payload: [UInt8] = []
        var determined: [Int] = [0]
        var blockCount = 0

        init(lengths: [Int], seed: UInt64) {
            var random = SeededGenerator(seed: seed)
            for (index, length) in lengths.enumerated() {
                // BFINAL on the last block, BTYPE 00; the header's 3 bits pad to a whole byte.
                let header: [UInt8] = [index == lengths.count - 1 ? 1 : 0,
                                       UInt8(length & 0xFF), UInt8(length >> 8),
                                       UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF)]
                for byte in header { append(byte, output: false) }
                for _ in 0..<length { append(UInt8.random(in: 0...255, using: &random), output: true) }
            }
            blockCount = lengths.count
        }

        private mutating func append(_ byte: UInt8, output: Bool) {
            bytes.append(byte)
            if output { payload.append(byte) }
            determined.append(payload.count)
        }

        /// The same blocks wrapped as a zlib or gzip stream (trailer bytes determine no output).
        func wrapped(_ format: DeflateFormat) -> (bytes: [UInt8], determined: [Int]) {
            switch format {
            case .raw:
                return (bytes, determined)
            case .zlib:
                let adler = Adler32.checksum(payload)
                let trailer = (0..<4).map { UInt8(truncatingIfNeeded: adler >> (24 - 8 * $0)) }
                return ([0x78, 0x01] + bytes + trailer, [0, 0] + determined + Array(repeating: payload.count, count: 4))
            case .gzip:
                var crc = CRC32()
                crc.update(payload)
                let size = UInt32(truncatingIfNeeded: payload.count)
                let trailer = (0..<4).map { UInt8(truncatingIfNeeded: crc.value >> (8 * $0)) }
                    + (0..<4).map { UInt8(truncatingIfNeeded: size >> (8 * $0)) }
                let header: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF]
                return (header + bytes + trailer, Array(repeating: 0, count: 10) + determined + Array(repeating: payload.count, count: 8))
            }
        }
    }

    private let stream = StoredStream(lengths: [0, 1, 2, 65_535, 7, 65_535, 65_535, 65_535, 65_535, 65_535,
                                                65_535, 65_535, 65_535, 65_535, 1000], seed: 0x570_2ED)

    func testByteAtATimeFollowsTheInputExactlyAndDeliversInKilobytes() throws {
        XCTAssertGreaterThan(stream.payload.count, 600_000)
        let bytes = stream.bytes
        let inflater = Inflater(format: .raw)
        var output: [UInt8] = []
        var deliveries = 0
        var ends: [Int] = []
        for (index, byte) in bytes.enumerated() {
            let status = try inflater.feed([byte]) { output.append(contentsOf: $0); deliveries += 1 }
            if status == .streamEnd { ends.append(index + 1) }
            XCTAssertEqual(inflater.totalIn, index + 1)
            if inflater.totalOut != stream.determined[index + 1] {
                XCTFail("after \(index + 1) bytes: totalOut \(inflater.totalOut), the bytes determine \(stream.determined[index + 1])")
                return
            }
        }
        XCTAssertEqual(ends, [bytes.count])
        XCTAssertEqual(output, stream.payload)
        XCTAssertEqual(inflater.inputBytesExamined, bytes.count)
        // One delivery per KiB, plus at most two per block (its last byte goes through the state
        // machine, which delivers) and per window slide: far fewer than one per byte.
        XCTAssertLessThanOrEqual(deliveries, stream.payload.count / 1024 + 2 * stream.blockCount + 8)
        XCTAssertGreaterThanOrEqual(deliveries, stream.payload.count / (256 * 1024 + 8 * 1024))
    }

    func testMixedSmallPiecesAndFlushesInEveryFormat() throws {
        for format in [DeflateFormat.raw, .zlib, .gzip] {
            let (bytes, determined) = stream.wrapped(format)
            var random = SeededGenerator(seed: 0xF1_05)
            let inflater = Inflater(format: format)
            var output: [UInt8] = []
            var fed = 0
            var ends: [Int] = []
            while fed < bytes.count {
                let size = min(Int.random(in: 1...7, using: &random), bytes.count - fed)
                let status = try bytes[fed..<(fed + size)].withUnsafeBytes { try inflater.feed($0) { output.append(contentsOf: $0) } }
                fed += size
                if status == .streamEnd { ends.append(fed) }
                if inflater.totalOut != determined[fed] {
                    XCTFail("\(format) after \(fed) bytes: totalOut \(inflater.totalOut), the bytes determine \(determined[fed])")
                    return
                }
                if Int.random(in: 0..<500, using: &random) == 0 {
                    // A flush hands over exactly what the bytes so far determine.
                    try inflater.flush { output.append(contentsOf: $0) }
                    XCTAssertEqual(output.count, determined[fed], "\(format) flushed after \(fed) bytes")
                    let recent = max(0, output.count - 64)..<output.count
                    XCTAssertEqual(output[recent], stream.payload[recent], "\(format) flushed after \(fed) bytes")
                }
            }
            XCTAssertEqual(ends, [bytes.count], "\(format)")
            XCTAssertEqual(output, stream.payload, "\(format)")
        }
    }

    func testOutputLimitInsideAStoredBlockFailsAsWhenFedWhole() throws {
        let (bytes, _) = stream.wrapped(.zlib)
        for limit in [0, 1, 3, 1023, 1024, 70_000, 300_000] {
            let options = InflateOptions(maxOutputBytes: limit)
            let whole = InflateHarness.run(bytes, format: .zlib, options: options)
            let byByte = InflateHarness.run(Chunking.fixed(bytes, size: 1), format: .zlib, options: options)
            XCTAssertEqual(whole.inflateError?.kind, .outputLimitExceeded, "limit \(limit)")
            XCTAssertEqual(byByte.inflateError?.kind, .outputLimitExceeded, "limit \(limit)")
            XCTAssertEqual(byByte.inflateError?.offset, whole.inflateError?.offset, "limit \(limit)")
            XCTAssertEqual(byByte.output, whole.output, "limit \(limit)")
            XCTAssertEqual(byByte.output[...], stream.payload[0..<byByte.output.count], "limit \(limit)")
        }
    }

    func testStreamCutInsideAStoredBlockHandsOverEverythingBeforeTheCut() throws {
        let (bytes, determined) = stream.wrapped(.gzip)
        for cut in [12, 13, 17, 5_000, 65_552, 400_001] {
            let prefix = Array(bytes[0..<cut])
            let whole = InflateHarness.run(prefix, format: .gzip)
            let byByte = InflateHarness.run(Chunking.fixed(prefix, size: 1), format: .gzip)
            XCTAssertEqual(whole.inflateError?.kind, .truncated, "cut at \(cut)")
            XCTAssertEqual(byByte.inflateError?.kind, .truncated, "cut at \(cut)")
            XCTAssertEqual(byByte.inflateError?.offset, whole.inflateError?.offset, "cut at \(cut)")
            XCTAssertEqual(byByte.output.count, determined[cut], "cut at \(cut)")
            XCTAssertEqual(byByte.output[...], stream.payload[0..<determined[cut]], "cut at \(cut)")
        }
    }
}
