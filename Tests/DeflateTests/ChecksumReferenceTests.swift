import XCTest
import Foundation
@testable import Deflate
import TestSupport

/// CRC-32 and Adler-32 against zlib's values (committed by
/// `TestImages/deflate/make_checksum_references.py`) for every length 0–4096 at every alignment,
/// long inputs fed in pieces, and the braided CRC-32 against its bytewise twin.
final class ChecksumReferenceTests: XCTestCase {
    struct References: Decodable {
        struct Long: Decodable {
            let length: Int
            let crc32: UInt32
            let adler32: UInt32
        }
        let seed: UInt64
        let prefix_crc32: [UInt32]
        let prefix_adler32: [UInt32]
        let long: [Long]
    }

    static func load() throws -> References {
        try JSONDecoder().decode(References.self, from: Data(Fixtures.bytes("deflate/checksum_references.json")))
    }

    /// The script's data: SplitMix64 outputs as little-endian bytes.
    static func data(seed: UInt64, count: Int) -> [UInt8] {
        var rng = SeededGenerator(seed: seed)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count + 8)
        while bytes.count < count { withUnsafeBytes(of: rng.next().littleEndian) { bytes.append(contentsOf: $0) } }
        return Array(bytes[0..<count])
    }

    func testEveryLengthUpTo4096AtEveryAlignmentMatchesZlib() throws {
        let references = try Self.load()
        XCTAssertEqual(references.prefix_crc32.count, 4097)
        let data = Self.data(seed: references.seed, count: 4096)
        // The same bytes starting 0–7 bytes past an 8-aligned address.
        let storage = UnsafeMutableRawPointer.allocate(byteCount: 4096 + 16, alignment: 16)
        defer { storage.deallocate() }
        for alignment in 0..<8 {
            let start = storage + alignment
            data.withUnsafeBytes { start.copyMemory(from: $0.baseAddress!, byteCount: 4096) }
            for length in 0...4096 {
                let bytes = UnsafeRawBufferPointer(start: start, count: length)
                var crc = CRC32()
                crc.update(bytes)
                var adler = Adler32()
                adler.update(bytes)
                XCTAssertEqual(crc.value, references.prefix_crc32[length], "CRC-32 length \(length) alignment \(alignment)")
                XCTAssertEqual(adler.value, references.prefix_adler32[length], "Adler-32 length \(length) alignment \(alignment)")
            }
        }
    }

    func testLongInputsInEveryChunkingMatchZlib() throws {
        let references = try Self.load()
        XCTAssertEqual(references.long.count, 3)
        for long in references.long {
            let data = Self.data(seed: references.seed, count: long.length)
            let chunkings: [(String, [ArraySlice<UInt8>])] = [
                ("whole", [data[...]]), ("1-byte", Chunking.fixed(data, size: 1)), ("7-byte", Chunking.fixed(data, size: 7)),
                ("4096-byte", Chunking.fixed(data, size: 4096)), ("random", Chunking.random(data, seed: 14, maxSize: 3000)),
            ]
            for (name, pieces) in chunkings {
                var crc = CRC32()
                var adler = Adler32()
                for piece in pieces {
                    piece.withUnsafeBytes { crc.update($0); adler.update($0) }
                }
                XCTAssertEqual(crc.value, long.crc32, "CRC-32 of \(long.length) bytes, \(name)")
                XCTAssertEqual(adler.value, long.adler32, "Adler-32 of \(long.length) bytes, \(name)")
            }
        }
    }

    /// The braided loop (inputs of 160 bytes and more) and slicing-by-8 against the one-table twin,
    /// from random registers, on lengths around every braid round boundary.
    func testBraidedAndSlicedMatchBytewiseTwin() {
        var rng = SeededGenerator(seed: 0xB4A1D)
        let data = (0..<3000).map { _ in UInt8.random(in: 0...255, using: &rng) }
        let tables = CRC32Tables.shared
        var lengths = Array(0...420)
        lengths += [799, 800, 801, 1999, 2000, 2001, 2999]
        data.withUnsafeBytes { raw in
            for length in lengths {
                let register = UInt32.random(in: 0...UInt32.max, using: &rng)
                let start = Int.random(in: 0...(3000 - length), using: &rng)
                let base = raw.baseAddress! + start
                XCTAssertEqual(tables.update(register, base, length), tables.bytewise(register, base, length),
                               "length \(length) start \(start)")
            }
        }
    }

    /// Bytes of 0xFF make the 16-bit lane sums of Adler-32 as large as they get: the SIMD path
    /// against the byte-at-a-time twin (`updateShort`) on lengths around the runs, the blocks
    /// (whole runs, then a shorter last run) and NMAX.
    func testAdler32OfAllOnesMatchesScalarTwin() {
        let ones = [UInt8](repeating: 0xFF, count: 3 * Adler32.nmax + 100)
        let run = 16 * Adler32.sixteenBitRun, block = 16 * Adler32.blockChunks
        for length in [run - 1, run, run + 16, 3 * run + 48, block - 16, block, block + 16, block + run + 15,
                       Adler32.nmax, Adler32.nmax + 16, 2 * block + 17, ones.count] {
            let scalar = ones.withUnsafeBufferPointer { Adler32.updateShort(1, $0.baseAddress!, length) }
            XCTAssertEqual(Adler32.checksum(Array(ones[0..<length])), scalar, "length \(length)")
        }
    }
}
