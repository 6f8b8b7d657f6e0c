import XCTest
@testable import Deflate
import TestSupport

/// A byte fed alone through ``Inflater/feed(_:into:)`` waits in the bit buffer (inlined into the
/// caller) or goes to `decodeByte`. `feedPiece` with the same 1-byte piece skips both and takes
/// the general small-piece way: its twin. After every byte the two must agree on everything the
/// inflater shows (output so far, bytes taken, the bit buffer and how many bytes may wait next,
/// which comes from per-block bounds refreshed after each state-machine call), and on the output
/// and error at the end.
final class ByteFedTwinTests: XCTestCase {
    /// Raw, zlib and gzip; fixed and dynamic blocks; literal-heavy (random, 16-bit photo) and
    /// match-heavy streams; overlapping copies.
    private static let streams = ["text_raw.deflate", "text_fixed_raw.deflate", "random_raw.deflate",
                                  "hand_overlapping_copies.deflate", "runs_raw_level9.deflate",
                                  "text_level9.zlib", "gzip_all_fields.gz", "png_rgba16_photo.zlib"]

    private struct Trace: Equatable {
        var output: [UInt8] = []
        /// Per byte: status (0 needs input, 1 stream end) or -1 for an error; totalOut, totalIn,
        /// bitCount, holdBelow, bitBuffer.
        var steps: [[Int]] = []
        var errorKind: InflateError.Kind?
        var errorOffset: Int?
    }

    /// Feeds `bytes` one at a time, through `feed` (`general` false) or `feedPiece`, then finishes.
    private func trace(_ bytes: [UInt8], _ format: DeflateFormat, options: InflateOptions, general: Bool) -> Trace {
        let inflater = Inflater(format: format, options: options)
        var trace = Trace()
        func record(_ status: Int) {
            trace.steps.append([status, inflater.totalOut, inflater.totalIn, inflater.bitCount, inflater.holdBelow,
                                Int(truncatingIfNeeded: inflater.bitBuffer)])
        }
        do {
            for byte in bytes {
                let status = try withUnsafeBytes(of: byte) { piece in
                    general ? try inflater.feedPiece(piece) { trace.output.append(contentsOf: $0) }
                            : try inflater.feed(piece) { trace.output.append(contentsOf: $0) }
                }
                record(status == .streamEnd ? 1 : 0)
            }
            try inflater.finish { trace.output.append(contentsOf: $0) }
        } catch let error as InflateError {
            record(-1)
            trace.errorKind = error.kind
            trace.errorOffset = error.offset
        } catch {
            XCTFail("unexpected error \(error)")
        }
        return trace
    }

    private func assertTwinsAgree(_ bytes: [UInt8], _ format: DeflateFormat, options: InflateOptions = InflateOptions(),
                                  _ context: String, file: StaticString = #filePath, line: UInt = #line) {
        let alone = trace(bytes, format, options: options, general: false)
        let general = trace(bytes, format, options: options, general: true)
        XCTAssertEqual(alone.steps.count, general.steps.count, context, file: file, line: line)
        if let index = alone.steps.indices.first(where: { $0 < general.steps.count && alone.steps[$0] != general.steps[$0] }) {
            XCTFail("\(context): after byte \(index) \(alone.steps[index]) != \(general.steps[index])", file: file, line: line)
        }
        XCTAssertEqual(alone.errorKind, general.errorKind, context, file: file, line: line)
        XCTAssertEqual(alone.errorOffset, general.errorOffset, context, file: file, line: line)
        XCTAssertTrue(alone.output == general.output, "\(context): output differs", file: file, line: line)
    }

    func testBytesFedAloneMatchTheGeneralSmallPieceWay() throws {
        for name in Self.streams {
            let fixture = try DeflateFixture.named(name)
            let bytes = try fixture.bytes()
            assertTwinsAgree(bytes, fixture.format, name)
            // The same stream cut short (finish reports the cut after the same output).
            assertTwinsAgree(Array(bytes.prefix(bytes.count * 2 / 3)), fixture.format, "\(name) cut")
        }
    }

    func testDamagedStreamsFedAloneFailAsTheGeneralWay() throws {
        var rng = SeededGenerator(seed: 0xB17E)
        for name in ["text_raw.deflate", "random_raw.deflate", "png_rgba16_photo.zlib"] {
            let fixture = try DeflateFixture.named(name)
            let original = try fixture.bytes()
            for _ in 0..<6 {
                var damaged = Array(original.prefix(30_000))
                let position = Int.random(in: 2..<damaged.count, using: &rng)
                damaged[position] ^= UInt8.random(in: 1...255, using: &rng)
                assertTwinsAgree(damaged, fixture.format, "\(name) damaged at \(position)")
            }
        }
    }

    /// Output limits near the stream's start: the last tokens go to the careful twin, which judges
    /// the limit, in both ways alike.
    func testOutputLimitsNearTheEndAgree() throws {
        for name in ["text_raw.deflate", "random_raw.deflate"] {
            let fixture = try DeflateFixture.named(name)
            let bytes = try fixture.bytes()
            for limit in [1, 63, 64, 65, 1000, 4097] {
                var options = InflateOptions()
                options.maxOutputBytes = limit
                assertTwinsAgree(bytes, fixture.format, options: options, "\(name) limited to \(limit)")
            }
        }
    }
}
