import XCTest
@testable import Deflate
import TestSupport

/// Pieces shorter than 8 bytes may leave output waiting (under 256 bytes) and input bytes
/// undecoded in the bit buffer (at most the trailer's length: zlib 4, gzip 7, raw 0; up to four
/// more inside a block before the final one, as far as the bit buffer takes them: zlib 7, gzip 7,
/// raw 4). What must not change: the stream end comes from the call with the stream's last byte, with all output
/// delivered; `flush(into:)` and `finish(into:)` deliver exactly what the bytes so far determine.
final class SmallPieceWaitingTests: XCTestCase {
    /// Streams of every format, with stored, fixed, dynamic and many blocks, small enough to feed
    /// byte by byte in a debug build.
    private static let streams = ["text_level6.zlib", "text_level9.zlib", "text_strategy_fixed.zlib",
                                  "text_sync_flush.zlib", "png_z00n2c08.zlib", "gzip_all_fields.gz",
                                  "gzip_three_members_one_empty.gz", "hand_max_distance.deflate",
                                  "text_fixed_raw.deflate", "one_byte.zlib", "one_byte.deflate", "empty_level6.zlib",
                                  "text_partial_flush_raw.deflate", "text_sync_flush_raw.deflate", "text_block_flush_raw.deflate",
                                  "text_partial_flush.zlib", "text_block_flush.zlib"]

    /// Output of the first `length` bytes fed as one piece (all it determines, delivered).
    private func outputOfPrefix(_ bytes: [UInt8], _ length: Int, format: DeflateFormat) throws -> [UInt8] {
        let inflater = Inflater(format: format)
        var output: [UInt8] = []
        try inflater.feed(Array(bytes[0..<length])) { output.append(contentsOf: $0) }
        try inflater.flush { output.append(contentsOf: $0) }
        return output
    }

    /// How many input bytes beyond those that cannot complete a token may wait undecoded: the
    /// trailer's length (zlib 4, gzip 7, raw 0), and inside a block before the final one up to
    /// four more (the final block takes at least 10 bits, and this block's end-of-block codeword,
    /// at most 15, comes first), at most 7 (the bit buffer's room).
    private func mayWait(_ format: DeflateFormat, inFinalBlock: Bool) -> Int {
        let trailer = format == .zlib ? 4 : format == .gzip ? 7 : 0
        return min(trailer + (inFinalBlock ? 0 : 4), 7)
    }

    /// The fixture's bytes, how many prefixes were decoded (`limit` at most), and the output of each prefix.
    private func prefixOutputs(_ fixture: DeflateFixture, upTo limit: Int) throws -> (bytes: [UInt8], checked: Int, output: [Int]) {
        let bytes = try fixture.bytes()
        let checked = min(bytes.count, limit)
        var output: [Int] = []
        for length in 0...checked { output.append(try outputOfPrefix(bytes, length, format: fixture.format).count) }
        return (bytes, checked, output)
    }

    func testStreamEndComesWithTheLastByteAndEveryOutputByte() throws {
        for name in Self.streams {
            let fixture = try DeflateFixture.named(name)
            let bytes = try fixture.bytes()
            for pieceSize in [1, 3, 7] {
                let inflater = Inflater(format: fixture.format)
                var output: [UInt8] = []
                var ends: [Int] = []
                var fed = 0
                for piece in Chunking.fixed(bytes, size: pieceSize) {
                    let status = try piece.withUnsafeBytes { try inflater.feed($0) { output.append(contentsOf: $0) } }
                    fed += piece.count
                    if status == .streamEnd { ends.append(fed) }
                }
                let context = "\(name) in \(pieceSize)-byte pieces"
                // Reported by the piece holding the last byte (and, but for the ends of earlier
                // gzip members, by none before it).
                XCTAssertEqual(ends.last, bytes.count, context)
                if name != "gzip_three_members_one_empty.gz" { XCTAssertEqual(ends.count, 1, context) }
                XCTAssertEqual(output.count, fixture.size, context)
                XCTAssertEqual(Digest.sha256(output), fixture.sha256, context)
                // Nothing waits: finish() (which has no sink) loses nothing.
                var late = 0
                try inflater.finish { late += $0.count }
                XCTAssertEqual(late, 0, context)
            }
        }
    }

    func testFlushGivesExactlyWhatThePrefixDeterminesAndOutputLagsBoundedly() throws {
        for name in ["text_level6.zlib", "text_fixed_raw.deflate", "gzip_all_fields.gz"] {
            let fixture = try DeflateFixture.named(name)
            // Every prefix up to 1 500 bytes (quadratic work: kept small for the debug build).
            let (bytes, checked, prefixOutput) = try prefixOutputs(fixture, upTo: 1500)
            let full = try Inflater.decompress(bytes, format: fixture.format)

            let inflater = Inflater(format: fixture.format)
            var delivered = 0
            var lagSeen = 0
            for length in 1...checked {
                try inflater.feed([bytes[length - 1]]) { delivered += $0.count }
                // Never more than the bytes determine; at most 255 bytes behind what all but the
                // last `held` bytes determine.
                let held = mayWait(fixture.format, inFinalBlock: inflater.isFinalBlock)
                XCTAssertLessThanOrEqual(delivered, prefixOutput[length], "\(name) after \(length) bytes")
                XCTAssertGreaterThanOrEqual(delivered, prefixOutput[max(0, length - held)] - 255, "\(name) after \(length) bytes")
                lagSeen = max(lagSeen, prefixOutput[length] - delivered)
                if length % 97 == 0 {
                    var flushed: [UInt8] = []
                    try inflater.flush { flushed.append(contentsOf: $0) }
                    delivered += flushed.count
                    XCTAssertEqual(delivered, prefixOutput[length], "\(name) flushed after \(length) bytes")
                    XCTAssertTrue(full[(delivered - flushed.count)..<delivered].elementsEqual(flushed), "\(name) after \(length)")
                }
            }
            if checked == bytes.count { XCTAssertEqual(delivered, full.count, name) }
            // The waiting is real (else this test checks nothing about it).
            XCTAssertGreaterThan(lagSeen, 0, name)
        }
    }

    /// Beyond the trailer's length (and up to four bytes inside a block before the final one), only
    /// bytes that cannot complete a token may wait: after every byte fed alone, everything the
    /// bytes so far determine but those last few is decoded (`totalOut`, delivered or not, against
    /// what the prefix fed whole gives). In the final block of a raw stream nothing the bytes
    /// determine waits (`text_fixed_raw.deflate` is one final block); before it, some does
    /// (`text_raw.deflate` starts with blocks that are not the last), and bytes do wait in
    /// both (else this checks nothing).
    func testOnlyBytesThatCannotCompleteATokenWaitBeyondTheTrailer() throws {
        for name in ["text_fixed_raw.deflate", "text_raw.deflate", "runs_raw_level9.deflate", "hand_max_distance.deflate",
                     "text_partial_flush_raw.deflate", "text_block_flush_raw.deflate", "text_level6.zlib", "gzip_all_fields.gz"] {
            let fixture = try DeflateFixture.named(name)
            let (bytes, checked, prefixOutput) = try prefixOutputs(fixture, upTo: 1200)
            let inflater = Inflater(format: fixture.format)
            var holds = 0
            var behind = 0
            for length in 1...checked {
                try inflater.feed([bytes[length - 1]]) { _ in }
                let held = mayWait(fixture.format, inFinalBlock: inflater.isFinalBlock)
                XCTAssertLessThanOrEqual(inflater.totalOut, prefixOutput[length], "\(name) after \(length) bytes")
                XCTAssertGreaterThanOrEqual(inflater.totalOut, prefixOutput[max(0, length - held)], "\(name) after \(length) bytes")
                if inflater.bitCount < inflater.holdBelow { holds += 1 }
                if inflater.totalOut < prefixOutput[length] { behind += 1 }
            }
            if fixture.format == .raw && name.hasPrefix("text_") { XCTAssertGreaterThan(holds, 0, name) }
            if name == "text_fixed_raw.deflate" { XCTAssertEqual(behind, 0, name) }
            if name == "text_raw.deflate" { XCTAssertGreaterThan(behind, 0, name) }
        }
    }

    func testFinishIntoDeliversTheOutputOfACutStreamsLastBytes() throws {
        let fixture = try DeflateFixture.named("text_level6.zlib")
        let bytes = try fixture.bytes()
        for cut in stride(from: 20, to: min(bytes.count - 4, 3000), by: 37) {
            let expected = try outputOfPrefix(bytes, cut, format: .zlib)
            let inflater = Inflater(format: .zlib)
            var output: [UInt8] = []
            for byte in bytes[0..<cut] { try inflater.feed([byte]) { output.append(contentsOf: $0) } }
            XCTAssertThrowsError(try inflater.finish { output.append(contentsOf: $0) }) { error in
                XCTAssertEqual((error as? InflateError)?.kind, .truncated)
                XCTAssertEqual((error as? InflateError)?.offset, cut)
            }
            XCTAssertEqual(output, expected, "cut at \(cut)")
        }
    }

    func testAnErrorInWaitingBytesComesAtTheSameOffsetFromFinish() throws {
        // A zlib stream whose last Huffman byte is damaged and whose trailer is cut off: the bad
        // token sits in the bytes that wait, so only finish can reveal it, as a whole feed does.
        let original = try DeflateFixture.named("text_strategy_fixed.zlib").bytes()
        var matched = 0
        for position in (original.count - 40)..<(original.count - 6) {
            var damaged = Array(original[0..<(position + 1)])
            damaged[position] ^= 0xFF
            let whole = InflateHarness.run(damaged, format: .zlib)
            let bytewise = InflateHarness.run(Chunking.fixed(damaged, size: 1), format: .zlib)
            XCTAssertEqual(bytewise.inflateError?.kind, whole.inflateError?.kind, "damaged at \(position)")
            XCTAssertEqual(bytewise.inflateError?.offset, whole.inflateError?.offset, "damaged at \(position)")
            XCTAssertEqual(bytewise.output, whole.output, "damaged at \(position)")
            if whole.inflateError?.kind != .truncated { matched += 1 }
        }
        // Some of the damage must be an error other than the cut (else the waiting bytes were never judged).
        XCTAssertGreaterThan(matched, 0)
    }
}
