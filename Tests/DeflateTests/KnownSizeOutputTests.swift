import XCTest
@testable import Deflate
import TestSupport

/// `Inflater.decompress(_:format:into:)`: the caller's buffer is the whole output and the history
/// window. Same bytes, same errors at the same offsets as the streaming path.
final class KnownSizeOutputTests: XCTestCase {
    /// Inflates into a buffer of `capacity` bytes: the bytes written (the buffer's prefix; after an
    /// error, the whole buffer, of which only the bytes before the failing token are defined) or the error.
    private func inflateIntoBuffer(_ bytes: [UInt8], _ format: DeflateFormat, capacity: Int,
                                   options: InflateOptions = InflateOptions()) -> (output: [UInt8], error: Error?) {
        var buffer = [UInt8](repeating: 0xA5, count: capacity)
        var written = 0
        var thrown: Error?
        bytes.withUnsafeBytes { input in
            buffer.withUnsafeMutableBytes { output in
                do {
                    written = try Inflater.decompress(input, format: format, into: output, options: options)
                } catch {
                    thrown = error
                }
            }
        }
        return (thrown == nil ? Array(buffer[0..<written]) : buffer, thrown)
    }

    func testEveryFixtureInflatesIntoABufferOfItsExactSize() throws {
        for fixture in try DeflateFixture.all() {
            let result = inflateIntoBuffer(try fixture.bytes(), fixture.format, capacity: fixture.size)
            XCTAssertNil(result.error, "\(fixture.name): \(String(describing: result.error))")
            XCTAssertEqual(result.output.count, fixture.size, fixture.name)
            XCTAssertEqual(Digest.sha256(result.output), fixture.sha256, fixture.name)
        }
    }

    func testALargerBufferReturnsTheOutputSize() throws {
        for fixture in try DeflateFixture.all() {
            let result = inflateIntoBuffer(try fixture.bytes(), fixture.format, capacity: fixture.size + 1000)
            XCTAssertNil(result.error, fixture.name)
            XCTAssertEqual(result.output.count, fixture.size, fixture.name)
            XCTAssertEqual(Digest.sha256(result.output), fixture.sha256, fixture.name)
        }
    }

    /// A buffer one byte short stops at the token that crosses its end, as `maxOutputBytes` stops
    /// the streaming path: same error, same offset, and the bytes before that token written.
    func testABufferOneByteShortFailsLikeTheStreamingLimit() throws {
        for fixture in try DeflateFixture.all() where fixture.size > 0 {
            let bytes = try fixture.bytes()
            let direct = inflateIntoBuffer(bytes, fixture.format, capacity: fixture.size - 1)
            let streamed = InflateHarness.run(bytes, format: fixture.format,
                                              options: InflateOptions(maxOutputBytes: fixture.size - 1))
            let error = direct.error as? InflateError
            XCTAssertEqual(error?.kind, .outputLimitExceeded, fixture.name)
            XCTAssertEqual(error, streamed.inflateError, fixture.name)
            XCTAssertEqual(Array(direct.output.prefix(streamed.output.count)), streamed.output, fixture.name)
        }
    }

    /// Seeded byte damage in IDAT, text and gzip streams: whatever the streaming path reports
    /// (kind and offset), the known-size path reports too, given the same output limit.
    func testDamagedStreamsFailWithTheSameKindAndOffsetAsStreaming() throws {
        let names = ["png_rgba16_photo.zlib", "png_photo_900x600_adam7.zlib"]
        var rng = SeededGenerator(seed: 0x1414)
        var compared = 0, failed = 0
        for name in names {
            let fixture = try DeflateFixture.named(name)
            let original = try fixture.bytes()
            for _ in 0..<40 {
                var damaged = original
                let position = Int.random(in: 0..<damaged.count, using: &rng)
                damaged[position] ^= UInt8.random(in: 1...255, using: &rng)
                let limit = fixture.size * 2 + 4096
                let options = InflateOptions(maxOutputBytes: limit)
                let streamed = InflateHarness.run(damaged, format: fixture.format, options: options)
                let direct = inflateIntoBuffer(damaged, fixture.format, capacity: limit)
                let streamedError = streamed.inflateError, directError = direct.error as? InflateError
                XCTAssertEqual(directError?.kind, streamedError?.kind, "\(name) byte \(position)")
                XCTAssertEqual(directError?.offset, streamedError?.offset, "\(name) byte \(position)")
                let defined = streamedError == nil ? direct.output : Array(direct.output.prefix(streamed.output.count))
                XCTAssertEqual(defined, streamed.output, "\(name) byte \(position)")
                compared += 1
                if streamedError != nil { failed += 1 }
            }
        }
        XCTAssertEqual(compared, 80)
        XCTAssertGreaterThan(failed, 40, "most damage must be detected for the comparison to mean something")
    }

    func testGzipMembersFollowEachOtherInTheBuffer() throws {
        let multi = try DeflateFixture.all().filter { $0.format == .gzip && $0.name.contains("member") }
        XCTAssertFalse(multi.isEmpty)
        for fixture in multi {
            let result = inflateIntoBuffer(try fixture.bytes(), .gzip, capacity: fixture.size)
            XCTAssertNil(result.error, fixture.name)
            XCTAssertEqual(Digest.sha256(result.output), fixture.sha256, fixture.name)
        }
    }

    func testAnEmptyBufferTakesAnEmptyStreamAndRefusesAnyOutput() throws {
        let empty = try DeflateFixture.named("empty_level6.zlib")
        XCTAssertNil(inflateIntoBuffer(try empty.bytes(), .zlib, capacity: 0).error)
        let text = try DeflateFixture.all().first { $0.size > 0 && $0.format == .zlib }
        let bytes = try XCTUnwrap(text).bytes()
        let error = inflateIntoBuffer(bytes, .zlib, capacity: 0).error as? InflateError
        XCTAssertEqual(error?.kind, .outputLimitExceeded)
    }

    /// In a caller's buffer the checksum is summed every `checksumStride` bytes while decoding
    /// (not in one pass at the end): over several strides and a partial one, the sum must still
    /// take every byte exactly once, for zlib and gzip, and a damaged trailer must still be caught.
    func testChecksumsSummedAsTheOutputGrowsCoverEveryByteOnce() throws {
        var rng = SeededGenerator(seed: 0x57D1)
        let words = ["pixel", "row", "stride", "filter", "chunk", "deflate", "window", "match"]
        var text: [UInt8] = []
        while text.count < 5 * Inflater.checksumStride / 2 {
            text += Array((words.randomElement(using: &rng) ?? "x").utf8) + [UInt8(ascii: " ")]
            if UInt8.random(in: 0...255, using: &rng) < 40 { text.append(UInt8.random(in: 0...255, using: &rng)) }
        }
        for format in [DeflateFormat.zlib, .gzip] {
            var stream = Deflater.compress(text, format: format, level: 6)
            let intact = inflateIntoBuffer(stream, format, capacity: text.count)
            XCTAssertNil(intact.error, "\(format)")
            XCTAssertEqual(intact.output, text, "\(format)")
            // zlib: the Adler-32 ends the stream; gzip: the CRC-32 comes before ISIZE.
            stream[stream.count - (format == .zlib ? 1 : 5)] ^= 0x40
            let damaged = inflateIntoBuffer(stream, format, capacity: text.count)
            XCTAssertEqual((damaged.error as? InflateError)?.kind, .checksumMismatch, "\(format)")
        }
    }
}
