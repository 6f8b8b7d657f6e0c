import TestSupport
@testable import WebPCodec
import XCTest

/// The byte path for lossless alpha (`VP8LGreenPlan`, `VP8LGreenPlaneDecoder`) against the
/// 32-bit VP8L decoder it stands in for. The pixels of every alpha fixture against dwebp are
/// checked by the conformance tests; these check the two paths agree stream by stream and
/// kernel by kernel.
final class AlphaGreenPathTests: XCTestCase {
    /// A VP8L stream (after its 5-byte header, or the ALPH header byte) and its image size.
    struct Stream {
        var name: String
        var bytes: [UInt8]
        var width: Int
        var height: Int
    }

    /// The lossless ALPH streams and the VP8L chunks of every still fixture.
    static func streams() throws -> (alpha: [Stream], lossless: [Stream]) {
        var alpha: [Stream] = [], lossless: [Stream] = []
        let paths = try Fixtures.files(in: "webp/files", withExtension: "webp")
            + Fixtures.files(in: "webp/libwebp-test-data", withExtension: "webp")
        for path in paths {
            let file = try Fixtures.bytes(path)
            var width = 0, height = 0
            var offset = 12
            while offset + 8 <= file.count {
                let tag = String(decoding: file[offset..<(offset + 4)], as: UTF8.self)
                let size = Int(file[offset + 4]) | Int(file[offset + 5]) << 8 | Int(file[offset + 6]) << 16 | Int(file[offset + 7]) << 24
                let start = offset + 8, end = min(file.count, start + size)
                let payload = Array(file[start..<end])
                if tag == "ANIM" || tag == "ANMF" { break }  // stills only: frames have their own sizes
                if tag == "VP8X", payload.count >= 10 {
                    width = (Int(payload[4]) | Int(payload[5]) << 8 | Int(payload[6]) << 16) + 1
                    height = (Int(payload[7]) | Int(payload[8]) << 8 | Int(payload[9]) << 16) + 1
                }
                if tag == "ALPH", payload.first.map({ $0 & 3 == 1 }) == true, width > 0 {
                    alpha.append(Stream(name: path, bytes: Array(payload.dropFirst()), width: width, height: height))
                }
                if tag == "VP8L", payload.count > 5 {
                    let bits = Int(payload[1]) | Int(payload[2]) << 8 | Int(payload[3]) << 16 | Int(payload[4]) << 24
                    lossless.append(Stream(name: path, bytes: Array(payload.dropFirst(5)),
                                           width: (bits & 0x3FFF) + 1, height: (bits >> 14 & 0x3FFF) + 1))
                }
                offset = start + size + (size & 1)
            }
        }
        return (alpha, lossless)
    }

    /// What a stream uses that decides the byte path's branches.
    struct Features: Hashable {
        var accepted = false
        var cache = false
        var select = false
        var palette = false
    }

    /// Whether the byte path takes `stream` (and what it uses), and whether its plane equals
    /// the 32-bit path's green.
    static func compare(_ stream: Stream) -> (features: Features, agree: Bool) {
        let maxTable = 1 << 22
        let features = stream.bytes.withUnsafeBytes { raw -> Features in
            var reader = VP8LBitReader()
            reader.attach(raw)
            var codeReader = VP8LCodeReader(reader: reader, maxTableEntries: maxTable)
            guard let header = try? VP8LStreamHeader.read(&codeReader, width: stream.width, height: stream.height) else {
                return Features()
            }
            var features = Features(accepted: VP8LGreenPlan(header) != nil, cache: header.codes.cacheBits > 0)
            for transform in header.transforms {
                if case .predictor(_, _, let modes, _) = transform { features.select = modes.contains { $0 >> 8 & 0xF == 11 } }
                if case .colorIndexing = transform { features.palette = true }
            }
            return features
        }
        let (fast, careful) = stream.bytes.withUnsafeBytes { raw in
            (AlphaPlaneDecoder.decodeLossless(raw, width: stream.width, height: stream.height, maxTableEntries: maxTable),
             AlphaPlaneDecoder.decodeLossless(raw, width: stream.width, height: stream.height, maxTableEntries: maxTable,
                                              allowBytePath: false))
        }
        switch (fast, careful) {
        case (.success(let a), .success(let b)): return (features, a == b)
        case (.failure, .failure): return (features, true)
        default: return (features, false)
        }
    }

    static func count(_ seen: [Features: Int], where condition: (Features) -> Bool) -> Int {
        seen.filter { condition($0.key) }.values.reduce(0, +)
    }

    func testEveryAlphaStreamGivesTheSamePlaneOnBothPaths() throws {
        let streams = try Self.streams().alpha
        XCTAssertEqual(streams.count, 20, "lossless ALPH chunks among the still fixtures")
        var seen: [Features: Int] = [:]
        for stream in streams {
            let (features, agree) = Self.compare(stream)
            XCTAssertTrue(agree, stream.name)
            seen[features, default: 0] += 1
        }
        XCTAssertEqual(Self.count(seen) { $0.accepted }, 20, "every libwebp-written alpha stream qualifies")
        XCTAssertEqual(Self.count(seen) { $0.cache }, 1, "one goes through the 32-bit pixel loop (colour cache)")
        XCTAssertEqual(Self.count(seen) { $0.palette }, 15)
    }

    func testLosslessImagesWhoseGreenStandsAloneGiveTheSameGreenOnBothPaths() throws {
        // Full ARGB images: the plan must reject those whose Select predictions mix channels.
        // Whenever it accepts, the green plane must equal the 32-bit decoder's.
        let streams = try Self.streams().lossless
        XCTAssertEqual(streams.count, 80)
        var seen: [Features: Int] = [:]
        for stream in streams {
            let (features, agree) = Self.compare(stream)
            XCTAssertTrue(agree, stream.name)
            seen[features, default: 0] += 1
        }
        XCTAssertEqual(Self.count(seen) { $0.accepted }, 38)
        XCTAssertEqual(Self.count(seen) { $0.accepted && $0.select }, 1, "Select on palette indices, zero residuals")
        XCTAssertEqual(Self.count(seen) { !$0.accepted && $0.select }, 18, "Select on full ARGB: rejected")
        XCTAssertEqual(Self.count(seen) { $0.accepted && $0.cache }, 11)
    }

    /// The ARGB predictor (``VP8LPredictor``) undone over `residuals`, rows of `width` pixels.
    static func predicted(_ residuals: [UInt32], width: Int, sizeBits: Int, modes: [UInt32]) -> [UInt32] {
        var argb = residuals
        var previous = [UInt32](repeating: 0, count: width)
        argb.withUnsafeMutableBufferPointer { all in
            previous.withUnsafeMutableBufferPointer { above in
                for y in 0..<(all.count / width) {
                    let row = UnsafeMutableBufferPointer(rebasing: all[(y * width)..<((y + 1) * width)])
                    VP8LPredictor.undo(row: row, previous: above, y: y, width: width, sizeBits: sizeBits,
                                       blocksPerRow: subsampledSize(width, sizeBits), modes: modes)
                    for x in 0..<width { above[x] = row[x] }
                }
            }
        }
        return argb
    }

    func testGreenPredictorMatchesTheARGBOneOnGreenOnlyRows() {
        // Pixels 0xFF00gg00 (alpha's encoding with the residuals' red, blue, alpha 0): every
        // mode, Select included, must give the ARGB predictor's green.
        var rng = SeededGenerator(seed: 0x6EE7)
        for round in 0..<400 {
            let width = 1 + round % 37, sizeBits = 2 + round % 3
            let blocksPerRow = subsampledSize(width, sizeBits)
            let modes = (0..<(blocksPerRow * 2)).map { _ in UInt32.random(in: 0...15, using: &rng) << 8 }
            let greens = (0..<(width * 2)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            // The ARGB path: residual rows with alpha, red, blue 0.
            let argb = Self.predicted(greens.map { UInt32($0) << 8 }, width: width, sizeBits: sizeBits, modes: modes)
            var bytes = greens
            VP8LGreenPlaneDecoder.undoPredictor(&bytes, width: width, height: 2, sizeBits: sizeBits,
                                                blocksPerRow: blocksPerRow, modes: modes)
            XCTAssertEqual(bytes, argb.map { UInt8(truncatingIfNeeded: $0 >> 8) }, "round \(round)")
            XCTAssertTrue(argb.allSatisfy { $0 & 0xFFFF_00FF == 0xFF00_0000 }, "red, blue stay 0 and alpha 255")
        }
    }

    func testGreenPredictorIgnoresOtherChannelsWithoutSelect() {
        var rng = SeededGenerator(seed: 0xA1FA)
        for round in 0..<300 {
            let width = 1 + round % 29, sizeBits = 2
            let blocksPerRow = subsampledSize(width, sizeBits)
            let modes = (0..<(blocksPerRow * 3)).map { _ -> UInt32 in
                var mode = UInt32.random(in: 0...15, using: &rng)
                if mode == 11 { mode = 12 }
                return mode << 8
            }
            let residuals = (0..<(width * 3)).map { _ in UInt32.random(in: 0...UInt32.max, using: &rng) }
            let argb = Self.predicted(residuals, width: width, sizeBits: sizeBits, modes: modes)
            var bytes = residuals.map { UInt8(truncatingIfNeeded: $0 >> 8) }
            VP8LGreenPlaneDecoder.undoPredictor(&bytes, width: width, height: 3, sizeBits: sizeBits,
                                                blocksPerRow: blocksPerRow, modes: modes)
            XCTAssertEqual(bytes, argb.map { UInt8(truncatingIfNeeded: $0 >> 8) }, "round \(round)")
        }
    }

    func testByteCopyRepeatsOverlappingPatterns() {
        var rng = SeededGenerator(seed: 0xC09E)
        for back in 1...20 {
            for length in [0, 1, 7, 8, 9, 31, 64] {
                var plane = (0..<120).map { _ in UInt8.random(in: 0...255, using: &rng) }
                var expected = plane
                for k in 40..<(40 + length) { expected[k] = expected[k - back] }
                plane.withUnsafeMutableBufferPointer { VP8LGreenPixelDecoder.copy($0.baseAddress!, to: 40, back: back, length: length) }
                XCTAssertEqual(plane, expected, "back \(back), length \(length)")
            }
        }
    }

    func testRunCopiesLeaveTheCacheAsInsertingEveryPixelWould() {
        // A run (distance 1) skips the cache inserts: its pixel is already the last insertion.
        var rng = SeededGenerator(seed: 0xCAC4E)
        let cacheBits = 4, shift = UInt32(32 - cacheBits)
        for _ in 0..<200 {
            var pixels = (0..<64).map { _ in UInt32.random(in: 0...7, using: &rng) &* 0x0101_0101 }
            var cache = [UInt32](repeating: 0, count: 1 << cacheBits)
            for pixel in pixels[0..<32] { cache[Int((pixel &* VP8LPixelDecoder.cacheHashMultiplier) >> shift)] = pixel }
            var expectedCache = cache
            var expected = pixels
            let back = Int.random(in: 1...4, using: &rng), length = Int.random(in: 1...32, using: &rng)
            for k in 32..<(32 + length) {
                expected[k] = expected[k - back]
                expectedCache[Int((expected[k] &* VP8LPixelDecoder.cacheHashMultiplier) >> shift)] = expected[k]
            }
            pixels.withUnsafeMutableBufferPointer { out in
                cache.withUnsafeMutableBufferPointer { slots in
                    VP8LPixelDecoder.copy(out.baseAddress!, to: 32, back: back, length: length, cache: slots, cacheShift: shift)
                }
            }
            XCTAssertEqual(pixels, expected)
            XCTAssertEqual(cache, expectedCache, "back \(back)")
        }
    }

    func testExtractGreenTakesTheSecondByte() {
        for count in 0..<13 {
            let pixels = (0..<count).map { UInt32($0) &* 0x0102_0304 &+ 0xA0B0_C0D0 }
            var green = [UInt8](repeating: 0, count: count)
            VP8LGreenPlaneDecoder.extractGreen(pixels, into: &green)
            XCTAssertEqual(green, pixels.map { UInt8(truncatingIfNeeded: $0 >> 8) })
        }
    }
}
