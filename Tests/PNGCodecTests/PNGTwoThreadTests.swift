import Deflate
import ImageCore
@testable import PNGCodec
import TestSupport
import XCTest

/// `maximumThreads: 2` (rows unfiltered and drawn on a worker, ``ScanlinePipeline``) gives what one
/// thread gives: pixels for every chunking, every preview and status, partial pictures and errors.
final class PNGTwoThreadTests: XCTestCase {
    private let twoThreads = DecodingOptions(maximumThreads: 2)

    // MARK: Helpers

    /// Everything a caller can see after feeding `pieces` and finishing (or failing).
    private struct Outcome: Equatable {
        /// The picture's size, format and pixel hash (a hash keeps failure messages short).
        var image: String?
        var error: ImageDecodingError?
        var status: DecodingStatus
    }

    /// A decoder that draws on a worker whatever the image size when `forced` (small corpus
    /// files), else only from ``ScanlinePipeline/minimumPixels`` on.
    private func decoder(threads: Int, forced: Bool = false, options: DecodingOptions = DecodingOptions()) -> PNGDecoder {
        var options = options
        options.maximumThreads = threads
        let decoder = PNGDecoder(options: options)
        if forced { decoder.twoThreadMinimumPixels = 0 }
        return decoder
    }

    private func outcome(of decoder: PNGDecoder, _ pieces: [ArraySlice<UInt8>]) -> Outcome {
        let thrown = feedAndFinish(decoder, pieces)
        let image = decoder.currentImage().map { "\($0.width)×\($0.height) \($0.format) \(Digest.sha256($0.pixels))" }
        return Outcome(image: image, error: thrown, status: decoder.status)
    }

    /// How many bands the decoder handed to its worker (nil: it decodes on one thread).
    private func bandsHandedOver(_ decoder: PNGDecoder) -> Int? {
        (decoder.scanlines as? ScanlinePipeline)?.bandsHandedOver
    }

    /// A picture with smooth gradients, edges and noise, so the encoder's adaptive filter choice
    /// uses every filter type (600×400 unless told).
    private static func testImage(_ format: PixelFormat, colors: Int? = nil, width: Int = 600, height: Int = 400) -> Image {
        let bpp = format.bytesPerPixel
        var pixels = [UInt8](repeating: 0, count: width * height * bpp)
        var rng = SeededGenerator(seed: 0x2_7EAD ^ UInt64(bpp))
        var noise = rng.next()
        for y in 0..<height {
            for x in 0..<width {
                noise = noise &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let n = Int(truncatingIfNeeded: noise >> 61)
                let base = y * width * bpp + x * bpp
                for channel in 0..<bpp {
                    var value = (x * (channel + 1) + y * (3 - channel % 3) + n) & 0xFF
                    if (x / 97 + y / 89) % 3 == 0 { value = (value ^ (x * y >> 7)) & 0xFF }
                    if let colors { value = (x / 60 * 7 + y / 70 * 13 + channel) % colors * (255 / colors) }
                    if channel == 3, format == .rgba8 { value = (x + y) % 255 }
                    pixels[base + channel] = UInt8(value)
                }
            }
        }
        return Image(width: width, height: height, format: format, pixels: pixels)
    }

    /// 1500×1400 RGB (2.1 Mpix, above ``ScanlinePipeline/minimumPixels``), encoded once.
    private static let largeRGB = PNGEncoder.fast.encode(testImage(.rgb8, width: 1500, height: 1400))

    // MARK: Corpus

    func testCorpusFilesGiveTheOneThreadPixelsForEveryChunkingOnTwoThreads() throws {
        var checked = 0
        for entry in try PNGTestSupport.decodableEntries() {
            let bytes = try CorpusManifest.bytes(of: entry)
            let whole = outcome(of: decoder(threads: 1), [bytes[...]])
            XCTAssertNil(whole.error, entry.path)
            var chunkings: [(String, [ArraySlice<UInt8>])] = [
                ("whole", [bytes[...]]),
                ("7", Chunking.fixed(bytes, size: 7)),
                ("4096", Chunking.fixed(bytes, size: 4096)),
                ("random", Chunking.random(bytes, seed: 0x2_7EAD ^ UInt64(bytes.count), maxSize: 700)),
            ]
            if bytes.count <= 300_000 { chunkings.append(("1", Chunking.fixed(bytes, size: 1))) }
            for (name, pieces) in chunkings {
                // The same pixels as whole; the same status (preview count included) as one thread fed alike.
                let one = outcome(of: decoder(threads: 1), pieces), two = decoder(threads: 2, forced: true)
                XCTAssertEqual(one.image, whole.image, "\(entry.path) in \(name)-byte pieces")
                XCTAssertEqual(outcome(of: two, pieces), one, "\(entry.path) in \(name)-byte pieces")
                XCTAssertGreaterThan(bandsHandedOver(two) ?? 0, 0, "\(entry.path): drawn on the worker")
            }
            checked += 1
        }
        XCTAssertGreaterThan(checked, 150)
    }

    func testEveryPreviewAndStatusEqualTheOneThreadOnesAfterEveryPiece() throws {
        for (path, size) in [("corpus/png/pngsuite/basi2c08.png", 1), ("corpus/png/pngsuite/basn6a16.png", 1),
                             ("corpus/png/extras/rgba16_photo_interlaced.png", 97), ("corpus/png/extras/photo_900x600_adam7.png", 4096)] {
            let bytes = try Fixtures.bytes(path)
            let one = decoder(threads: 1), two = decoder(threads: 2, forced: true)
            var generations = Set<Int>()
            for (index, piece) in Chunking.fixed(bytes, size: size).enumerated() {
                let statusOne = try one.feed(piece), statusTwo = try two.feed(piece)
                XCTAssertEqual(statusTwo, statusOne, "\(path) after piece \(index)")
                XCTAssertEqual(two.currentImage(), one.currentImage(), "\(path) after piece \(index)")
                generations.insert(statusOne.progress?.previewGeneration ?? -1)
            }
            XCTAssertEqual(try two.finish(), try one.finish(), path)
            XCTAssertGreaterThan(generations.count, 10, "\(path): distinct previews")
            XCTAssertGreaterThan(bandsHandedOver(two) ?? 0, 1, path)
        }
    }

    // MARK: Large images, default threshold

    func testALargeImageGivesTheOneThreadPixelsOnTwoThreadsForEveryChunking() throws {
        let bytes = Self.largeRGB
        XCTAssertEqual(try PNGTestSupport.decode(bytes), Self.testImage(.rgb8, width: 1500, height: 1400), "round trip")
        for (chunking, pieces) in [("whole", [bytes[...]]), ("4096", Chunking.fixed(bytes, size: 4096)),
                                   ("random", Chunking.random(bytes, seed: 0x51DE, maxSize: 70_000))] {
            let one = outcome(of: decoder(threads: 1), pieces), two = decoder(threads: 2)
            XCTAssertEqual(outcome(of: two, pieces), one, chunking)
            // 1400 rows of 4501 bytes in bands of 64 KiB.
            XCTAssertEqual(bandsHandedOver(two), (1400 * 4501 + ScanlinePipeline.maxBandBytes - 1) / ScanlinePipeline.maxBandBytes, chunking)
        }
        // rgba8 output: RGB rows go straight into the RGBA canvas, on the worker too.
        let rgba = DecodingOptions(preferredFormat: .rgba8)
        XCTAssertEqual(outcome(of: decoder(threads: 2, options: rgba), [bytes[...]]),
                       outcome(of: decoder(threads: 1, options: rgba), [bytes[...]]))
    }

    func testImagesOfEveryKindGiveTheOneThreadPixelsOnTwoThreads() throws {
        let cases: [(String, Image, PNGEncoder)] = [
            ("rgba8", Self.testImage(.rgba8), PNGEncoder.fast),
            ("rgb16", Self.testImage(.rgb16), PNGEncoder.fast),
            ("gray8", Self.testImage(.gray8), PNGEncoder.fast),
            ("palette", Self.testImage(.rgb8, colors: 16), PNGEncoder.fast),
            ("rgb8 Adam7", Self.testImage(.rgb8), PNGEncoder(compressionLevel: 1, interlaced: true)),
            ("rgba16 Adam7", Self.testImage(.rgba16), PNGEncoder(compressionLevel: 1, interlaced: true)),
        ]
        for (name, image, encoder) in cases {
            let bytes = encoder.encode(image)
            XCTAssertEqual(try PNGTestSupport.decode(bytes), image, "\(name): round trip")
            for (chunking, pieces) in [("whole", [bytes[...]]), ("random", Chunking.random(bytes, seed: 0x51DE, maxSize: 30_000))] {
                for format in [nil, PixelFormat.rgba8] {
                    let options = DecodingOptions(preferredFormat: format)
                    let one = outcome(of: decoder(threads: 1, options: options), pieces)
                    let two = decoder(threads: 2, forced: true, options: options)
                    XCTAssertEqual(outcome(of: two, pieces), one, "\(name), \(chunking), \(format.map { "\($0)" } ?? "natural")")
                    // Bands of (filtered bytes / 64) bytes: 64 full ones and the rest.
                    let expected = try XCTUnwrap(two.scanlines?.expectedBytes)
                    let bandBytes = expected / ScanlinePipeline.minimumBandsPerImage
                    XCTAssertEqual(bandsHandedOver(two), (expected + bandBytes - 1) / bandBytes, "\(name), \(chunking)")
                }
            }
        }
    }

    func testSmallImagesAndOneThreadKeepTheOneThreadStage() throws {
        let small = try Fixtures.bytes("corpus/png/pngsuite/basn2c08.png")
        let twoOnSmall = decoder(threads: 2)
        try twoOnSmall.feed(small)
        XCTAssertTrue(twoOnSmall.scanlines is ScanlineDecoder)
        let large = Self.largeRGB
        let oneOnLarge = decoder(threads: 1)
        try oneOnLarge.feed(large)
        XCTAssertTrue(oneOnLarge.scanlines is ScanlineDecoder)
        let twoOnLarge = decoder(threads: 2)
        try twoOnLarge.feed(large)
        XCTAssertTrue(twoOnLarge.scanlines is ScanlinePipeline)
    }

    // MARK: Damaged data

    func testAFileCutMidImageDataGivesTheOneThreadPictureAndError() throws {
        let bytes = Self.largeRGB
        for cut in [bytes.count / 3, bytes.count * 2 / 3 + 5] {
            let prefix = Array(bytes[..<cut])
            for pieces in [[prefix[...]], Chunking.random(prefix, seed: 7, maxSize: 9000)] {
                let one = outcome(of: decoder(threads: 1), pieces)
                XCTAssertEqual(one.error?.kind, .truncated)
                XCTAssertEqual(one.error?.offset, cut)
                let rows = try XCTUnwrap(one.status.progress?.completedRows)
                XCTAssertGreaterThan(rows, 100)
                XCTAssertLessThan(rows, 1400)
                XCTAssertEqual(outcome(of: decoder(threads: 2), pieces), one, "cut at \(cut)")
            }
        }
    }

    func testCorruptCompressedDataGivesTheOneThreadPictureAndError() throws {
        let bytes = PNGEncoder.fast.encode(Self.testImage(.rgba8))
        for position in [bytes.count / 4, bytes.count / 2] {
            var damaged = bytes
            for offset in position..<(position + 16) { damaged[offset] ^= 0x5A }
            for verifyChecksums in [true, false] {
                let options = DecodingOptions(verifyChecksums: verifyChecksums)
                let one = outcome(of: decoder(threads: 1, options: options), Chunking.fixed(damaged, size: 4096))
                XCTAssertNotNil(one.error, "damaged at \(position)")
                XCTAssertNotEqual(one.error?.kind, .internal)
                let two = outcome(of: decoder(threads: 2, forced: true, options: options), Chunking.fixed(damaged, size: 4096))
                XCTAssertEqual(two, one, "damaged at \(position), checksums \(verifyChecksums)")
            }
        }
    }

    func testABadFilterTypeThrowsAtTheOneThreadOffsetWithTheRowsBeforeIt() throws {
        // 1200×1000 gray, unfiltered rows except row 700, whose filter type is 9 (PNG 9.2 has 0 ... 4).
        let width = 1200, height = 1000
        var rows: [UInt8] = []
        rows.reserveCapacity((width + 1) * height)
        for y in 0..<height {
            rows.append(y == 700 ? 9 : UInt8(y % 5))
            for x in 0..<width { rows.append(UInt8((x ^ y) & 0xFF)) }
        }
        let compressed = Deflater.compress(rows, level: 1)
        let bytes = TestPNGBuilder.file([TestPNGBuilder.ihdr(width: width, height: height, bitDepth: 8, colorType: 0),
                                         TestPNGBuilder.chunk("IDAT", compressed), TestPNGBuilder.iend])
        for pieces in [[bytes[...]], Chunking.fixed(bytes, size: 4096), Chunking.fixed(bytes, size: 7)] {
            let one = outcome(of: decoder(threads: 1), pieces)
            XCTAssertEqual(one.error?.kind, .invalidData)
            XCTAssertEqual(one.status.progress?.completedRows, 700)
            let two = outcome(of: decoder(threads: 2), pieces)
            XCTAssertEqual(two, one)
        }
    }

    // MARK: Lifetime

    func testADecoderDroppedMidImageStopsItsWorkerAndIsFreed() throws {
        let bytes = Self.largeRGB
        weak var pipeline: ScanlinePipeline?
        do {
            let two = decoder(threads: 2)
            try two.feed(Array(bytes[..<(bytes.count / 2)]))
            let stage = try XCTUnwrap(two.scanlines as? ScanlinePipeline)
            XCTAssertGreaterThan(stage.bandsHandedOver, 10)
            pipeline = stage
        }
        XCTAssertNil(pipeline, "the decoder and its pipeline are freed once dropped")
    }
}
