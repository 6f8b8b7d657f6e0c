import XCTest
import ImageCore
@testable import JPEGCodec
import TestSupport

/// `readHeader` and `decode(_:into:bytesPerRow:)`: pictures written straight into the caller's
/// memory, rows any distance apart, with the pixels of the incremental API and no picture of the
/// decoder's own.
final class JPEGDecodeIntoTests: XCTestCase {
    /// Bytes after each row that the decoder must leave alone.
    private let padding = 5
    private let sentinel: UInt8 = 0xA5

    /// Decodes `bytes` into a buffer with `padding` sentinel bytes after each row; returns the rows
    /// without padding, whether every padding byte kept its value, and the decoder.
    private func decodeIntoPaddedRows(_ bytes: [UInt8], options: DecodingOptions = DecodingOptions())
        throws -> (pixels: [UInt8], paddingIntact: Bool, header: ImageHeader, decoder: JPEGDecoder) {
        let header = try XCTUnwrap(try bytes.withUnsafeBytes { try JPEGDecoder.readHeader($0, options: options) })
        let rowBytes = header.width * header.pixelFormat.bytesPerPixel
        let bytesPerRow = rowBytes + padding
        var memory = [UInt8](repeating: sentinel, count: bytesPerRow * header.height)
        let decoder = JPEGDecoder(options: options)
        var thrown: Error?
        memory.withUnsafeMutableBytes { destination in
            bytes.withUnsafeBytes { source in
                do { try decoder.decode(source, into: destination, bytesPerRow: bytesPerRow) } catch { thrown = error }
            }
        }
        if let thrown { throw thrown }
        var pixels: [UInt8] = [], paddingIntact = true
        for y in 0..<header.height {
            pixels += memory[(y * bytesPerRow)..<(y * bytesPerRow + rowBytes)]
            paddingIntact = paddingIntact && memory[(y * bytesPerRow + rowBytes)..<((y + 1) * bytesPerRow)].allSatisfy { $0 == sentinel }
        }
        return (pixels, paddingIntact, header, decoder)
    }

    func testEverySequentialCorpusFileDecodesIntoCallerMemoryAsTheReference() throws {
        var failures: [String] = []
        for entry in try JPEGCorpus.sequentialDecodeEntries() {
            for threads in [1, 2] {
                let result = try decodeIntoPaddedRows(try CorpusManifest.bytes(of: entry), options: DecodingOptions(maximumThreads: threads))
                if Digest.sha256(result.pixels) != entry.reference?.sha256 { failures.append("\(entry.path) threads \(threads): pixels") }
                if !result.paddingIntact { failures.append("\(entry.path) threads \(threads): padding written") }
                // No picture of its own: the caller's memory is the only one.
                if !result.decoder.canvas.isEmpty || result.decoder.currentImage() != nil { failures.append("\(entry.path): own picture") }
            }
        }
        XCTAssertEqual(failures, [])
    }

    func testProgressiveAndScaledDecodesIntoCallerMemoryEqualTheIncrementalAPI() throws {
        for path in ["jpeg/generated/testorig_progressive.jpg", "jpeg/generated/synth_gray_progressive.jpg", "jpeg/libjpeg-turbo/testorig.jpg"] {
            let bytes = try JPEGCorpus.bytes(path)
            for scale in ScaleFactor.allCases {
                let options = DecodingOptions(scale: scale)
                let result = try decodeIntoPaddedRows(bytes, options: options)
                let expected = try JPEGDecoder(options: options).decode(bytes)
                XCTAssertEqual([result.header.width, result.header.height], [expected.width, expected.height], path)
                XCTAssertEqual(result.pixels, expected.pixels, "\(path) 1/\(scale.denominator)")
                XCTAssertTrue(result.paddingIntact, path)
                XCTAssertTrue(result.decoder.canvas.isEmpty, path)
            }
        }
    }

    /// 12-bit (sequential and progressive) and lossless (8 to 16 bits) files, whole, cut and
    /// damaged: the caller's rows hold what `currentImage()` shows after the same bytes, the padding
    /// is untouched, and the error is the incremental API's.
    func testTwelveBitAndLosslessFilesDecodeIntoCallerMemoryAsTheIncrementalAPI() throws {
        let names = ["twelve_420.jpg", "twelve_420_truncated.jpg", "twelve_gray.jpg", "twelve_progressive.jpg",
                     "twelve_progressive_420_short.jpg", "lossless_8bit_rgb_p4.jpg", "lossless_12bit_rgb_p1_damaged.jpg",
                     "lossless_12bit_subsampled_restarts_truncated.jpg", "lossless_16bit_gray_p7.jpg", "lossless_2bit_gray_p1.jpg"]
        var failures: [String] = []
        for name in names {
            let bytes = try HighPrecisionReferences.bytes(name)
            let incremental = JPEGDecoder()
            var expectedError: ImageDecodingError.Kind?
            do {
                try bytes.withUnsafeBytes { _ = try incremental.feed($0) }
                _ = try incremental.finish()
            } catch let error as ImageDecodingError { expectedError = error.kind }
            let expected = try XCTUnwrap(incremental.currentImage(), name)

            let header = try XCTUnwrap(try bytes.withUnsafeBytes { try JPEGDecoder.readHeader($0) }, name)
            XCTAssertEqual(header.pixelFormat, expected.format, name)
            let rowBytes = header.width * header.pixelFormat.bytesPerPixel, bytesPerRow = rowBytes + padding
            var memory = [UInt8](repeating: sentinel, count: bytesPerRow * header.height)
            let decoder = JPEGDecoder()
            var thrown: ImageDecodingError.Kind?
            memory.withUnsafeMutableBytes { destination in
                bytes.withUnsafeBytes { source in
                    do { try decoder.decode(source, into: destination, bytesPerRow: bytesPerRow) } catch let error as ImageDecodingError {
                        thrown = error.kind
                    } catch { failures.append("\(name): \(error)") }
                }
            }
            var pixels: [UInt8] = [], paddingIntact = true
            for y in 0..<header.height {
                pixels += memory[(y * bytesPerRow)..<(y * bytesPerRow + rowBytes)]
                paddingIntact = paddingIntact && memory[(y * bytesPerRow + rowBytes)..<((y + 1) * bytesPerRow)].allSatisfy { $0 == sentinel }
            }
            if pixels != expected.pixels { failures.append("\(name): pixels") }
            if !paddingIntact { failures.append("\(name): padding written") }
            if thrown != expectedError { failures.append("\(name): error \(String(describing: thrown)), expected \(String(describing: expectedError))") }
            if !decoder.canvas.isEmpty { failures.append("\(name): own picture") }
        }
        XCTAssertEqual(failures, [])
    }

    func testReadHeaderStopsAtTheFrameHeaderAndAllocatesNoPicture() throws {
        let bytes = try JPEGCorpus.bytes("jpeg/libjpeg-turbo/testorig.jpg")
        let header = try XCTUnwrap(try bytes.withUnsafeBytes { try JPEGDecoder.readHeader($0) })
        XCTAssertEqual([header.width, header.height], [227, 149])
        XCTAssertEqual(header.pixelFormat, .rgb8)
        let quarter = try XCTUnwrap(try bytes.withUnsafeBytes { try JPEGDecoder.readHeader($0, options: DecodingOptions(scale: .quarter)) })
        XCTAssertEqual([quarter.width, quarter.height], [57, 38])
        // Before the frame header: no header yet.
        XCTAssertNil(try bytes.withUnsafeBytes { try JPEGDecoder.readHeader(UnsafeRawBufferPointer(rebasing: $0[..<20])) })
        XCTAssertThrowsError(try [UInt8]([1, 2, 3]).withUnsafeBytes { try JPEGDecoder.readHeader($0) }) {
            XCTAssertEqual(($0 as? ImageDecodingError)?.kind, .invalidSignature)
        }
    }

    func testMemoryTooSmallIsLimitExceededAndLeftUntouched() throws {
        let bytes = try JPEGCorpus.bytes("jpeg/libjpeg-turbo/testorig.jpg")
        for (bytesPerRow, count) in [(227 * 3 - 1, 227 * 3 * 149), (227 * 3, 227 * 3 * 149 - 1)] {
            var memory = [UInt8](repeating: sentinel, count: count)
            XCTAssertThrowsError(try memory.withUnsafeMutableBytes { destination in
                try bytes.withUnsafeBytes { try JPEGDecoder().decode($0, into: destination, bytesPerRow: bytesPerRow) }
            }) { XCTAssertEqual(($0 as? ImageDecodingError)?.kind, .limitExceeded) }
            XCTAssertTrue(memory.allSatisfy { $0 == sentinel }, "bytesPerRow \(bytesPerRow)")
        }
    }

    func testTruncatedFileThrowsAndLeavesWhatCurrentImageShows() throws {
        for path in ["jpeg/malformed/testorig_baseline_truncated_60pct.jpg", "jpeg/generated/testorig_restart_3B.jpg"] {
            var bytes = try JPEGCorpus.bytes(path)
            bytes.removeLast(bytes.count / 3)
            let reference = JPEGDecoder(options: DecodingOptions(usesEmbeddedThumbnail: false))
            try reference.feed(bytes)
            XCTAssertThrowsError(try reference.finish())
            XCTAssertThrowsError(try decodeIntoPaddedRows(bytes)) { XCTAssertEqual(($0 as? ImageDecodingError)?.kind, .truncated, path) }
            // The rows are checked through a second decode that keeps its memory.
            let header = try XCTUnwrap(reference.header)
            var memory = [UInt8](repeating: sentinel, count: header.width * header.height * 3)
            _ = try? memory.withUnsafeMutableBytes { destination in
                try bytes.withUnsafeBytes { try JPEGDecoder().decode($0, into: destination, bytesPerRow: header.width * 3) }
            }
            XCTAssertEqual(memory, reference.currentImage()?.pixels, path)
        }
    }

    func testFormatsOtherThanTheNaturalOneAreUnsupported() throws {
        let bytes = try JPEGCorpus.bytes("jpeg/libjpeg-turbo/testorig.jpg")
        var memory = [UInt8](repeating: 0, count: 227 * 149 * 4)
        XCTAssertThrowsError(try memory.withUnsafeMutableBytes { destination in
            try bytes.withUnsafeBytes {
                try JPEGDecoder(options: DecodingOptions(preferredFormat: .rgba8)).decode($0, into: destination, bytesPerRow: 227 * 4)
            }
        }) { XCTAssertEqual(($0 as? ImageDecodingError)?.kind, .unsupported) }
    }
}
