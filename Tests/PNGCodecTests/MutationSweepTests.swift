import Foundation
import ImageCore
import PNGCodec
import TestSupport
import XCTest

/// Seeded damage to every small corpus file: nothing traps, every case throws an
/// `ImageDecodingError` that is not `internal` or returns an image within the limits, and the
/// outcome does not depend on how the input is split.
final class MutationSweepTests: XCTestCase {
    /// Tight limits so that edited sizes cannot make the sweep allocate gigabytes.
    private var options = DecodingOptions(limits: Limits(maxPixels: 1 << 20, maxDimension: 1 << 14,
                                                         maxMetadataBytes: 1 << 20, maxInflateOutput: 1 << 20))
    private static let maxFileSize = 12_000
    /// `PNG_MUTATION_SCALE=N` runs N times as many rounds (different seeds) for a longer campaign,
    /// e.g. `PNG_MUTATION_SCALE=50 swift test -c release --filter MutationSweepTests`.
    private static let scale = max(1, Int(ProcessInfo.processInfo.environment["PNG_MUTATION_SCALE"] ?? "") ?? 1)

    private enum Outcome: Equatable {
        case image(Image)
        case error(ImageDecodingError.Kind)
    }

    private func outcome(_ pieces: [ArraySlice<UInt8>]) -> Outcome {
        let decoder = PNGDecoder(options: options)
        do {
            for piece in pieces { try decoder.feed(piece) }
            return .image(try decoder.finish())
        } catch let error as ImageDecodingError {
            // Whatever happened, the picture so far is still whole.
            if let partial = decoder.currentImage() {
                XCTAssertEqual(partial.pixels.count, partial.width * partial.height * partial.format.bytesPerPixel)
            }
            return .error(error.kind)
        } catch {
            XCTFail("not an ImageDecodingError: \(error)")
            return .error(.internal)
        }
    }

    /// Decodes `bytes` whole and in seeded random pieces; checks both agree and are acceptable.
    private func check(_ bytes: [UInt8], _ what: String, seed: UInt64, tally: inout [String: Int]) {
        let whole = outcome([bytes[...]])
        let split = outcome(Chunking.random(bytes, seed: seed, maxSize: 64))
        XCTAssertEqual(whole, split, "\(what): the outcome depends on the chunking")
        switch whole {
        case .error(let kind):
            XCTAssertNotEqual(kind, .internal, what)
            tally[kind.rawValue, default: 0] += 1
        case .image(let image):
            XCTAssertLessThanOrEqual(image.width * image.height, options.limits.maxPixels, what)
            XCTAssertEqual(image.pixels.count, image.width * image.height * image.format.bytesPerPixel, what)
            tally["image", default: 0] += 1
        }
    }

    private func sweepFiles() throws -> [(String, [UInt8])] {
        try PNGTestSupport.corpusEntries().compactMap { entry in
            let bytes = try CorpusManifest.bytes(of: entry)
            return bytes.count <= Self.maxFileSize ? (entry.path, bytes) : nil
        }
    }

    func testBitFlipsAndTruncationsNeverTrap() throws {
        var tally: [String: Int] = [:]
        var rng = SeededGenerator(seed: 0xB17F11B5)
        let files = try sweepFiles()
        XCTAssertGreaterThan(files.count, 150)
        for (path, original) in files {
            for round in 0..<(16 * Self.scale) {
                var bytes = original
                let flips = 1 + round % 3
                for _ in 0..<flips {
                    let index = Int.random(in: 0..<bytes.count, using: &rng)
                    bytes[index] ^= 1 << UInt8.random(in: 0..<8, using: &rng)
                }
                check(bytes, "\(path) with \(flips) bit flips (round \(round))", seed: rng.next(), tally: &tally)
            }
            let cut = Int.random(in: 0..<original.count, using: &rng)
            check(Array(original[..<cut]), "\(path) cut at \(cut)", seed: rng.next(), tally: &tally)
        }
        // Flipped CRCs, data and signatures must produce a spread of error kinds, not one catch-all.
        XCTAssertGreaterThan(tally["checksumMismatch", default: 0], 100, "\(tally)")
        XCTAssertGreaterThan(tally["truncated", default: 0], 100, "\(tally)")
        XCTAssertGreaterThan(tally["invalidSignature", default: 0], 0, "\(tally)")
    }

    func testBitFlipsWithChecksumsOffReachTheImageDataAndNeverTrap() throws {
        // Without CRC and Adler-32 checks the damage gets past the chunk layer into the zlib
        // stream, the filters and the row expansion.
        options.verifyChecksums = false
        var tally: [String: Int] = [:]
        var rng = SeededGenerator(seed: 0xDA7A)
        for (path, original) in try sweepFiles() {
            let editor = PNGFileEditor(original)
            let idat = editor.chunks.filter { $0.type == "IDAT" && $0.length > 0 }
            for round in 0..<(12 * Self.scale) {
                var bytes = original
                if let chunk = idat.randomElement(using: &rng) {
                    let index = chunk.dataOffset + Int.random(in: 0..<chunk.length, using: &rng)
                    bytes[index] ^= 1 << UInt8.random(in: 0..<8, using: &rng)
                }
                check(bytes, "\(path) with an IDAT bit flip, checksums off (round \(round))", seed: rng.next(), tally: &tally)
            }
        }
        // Some flips still give a (wrong but well-formed) picture, others break the zlib data.
        XCTAssertGreaterThan(tally["image", default: 0], 100, "\(tally)")
        XCTAssertGreaterThan(tally["invalidData", default: 0], 100, "\(tally)")
    }

    func testLengthFieldEditsNeverTrap() throws {
        var tally: [String: Int] = [:]
        var rng = SeededGenerator(seed: 0x1E97)
        for (path, original) in try sweepFiles() {
            let editor = PNGFileEditor(original)
            let chunks = editor.chunks
            guard !chunks.isEmpty else { continue }
            for _ in 0..<(3 * Self.scale) {
                // Length field alone: the CRC is then read from the wrong place.
                var edited = editor
                let chunk = chunks[Int.random(in: 0..<chunks.count, using: &rng)]
                let lengths: [UInt32] = [0, 1, UInt32(chunk.length) &+ 1, UInt32(max(chunk.length - 1, 0)), 0x7FFF_FFFF, 0xFFFF_FFFF,
                                         UInt32.random(in: 0...100_000, using: &rng)]
                let length = lengths[Int.random(in: 0..<lengths.count, using: &rng)]
                edited.setLengthField(of: chunk, to: length)
                check(edited.bytes, "\(path): \(chunk.type) length field set to \(length)", seed: rng.next(), tally: &tally)

                // Data shortened or lengthened with the length and CRC recomputed.
                var resized = editor
                var data = editor.data(of: chunk)
                if data.isEmpty || Bool.random(using: &rng) {
                    data += (0..<Int.random(in: 1...20, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
                } else {
                    data.removeLast(Int.random(in: 1...data.count, using: &rng))
                }
                resized.replaceData(of: chunk, with: data)
                check(resized.bytes, "\(path): \(chunk.type) resized to \(data.count) with a valid CRC", seed: rng.next(), tally: &tally)
            }
        }
        XCTAssertGreaterThan(tally["invalidData", default: 0], 50, "\(tally)")
    }

    func testIHDRFieldEditsWithValidCRCNeverTrap() throws {
        var tally: [String: Int] = [:]
        var rng = SeededGenerator(seed: 0x1D0C)
        // (field offset in IHDR data, field size, interesting values)
        let fields: [(Int, Int, [UInt32])] = [
            (0, 4, [0, 1, 2, 7, 9, 255, 1 << 14, (1 << 14) + 1, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF]),
            (4, 4, [0, 1, 3, 8, 1 << 14, (1 << 14) + 1, 0x7FFF_FFFF, 0xFFFF_FFFF]),
            (8, 1, [0, 1, 2, 3, 4, 5, 8, 16, 32, 255]),
            (9, 1, [0, 1, 2, 3, 4, 5, 6, 7, 255]),
            (10, 1, [0, 1]), (11, 1, [0, 1]), (12, 1, [0, 1, 2]),
        ]
        for (path, original) in try sweepFiles() {
            let editor = PNGFileEditor(original)
            guard let ihdr = editor.chunks.first, ihdr.type == "IHDR", ihdr.length == 13 else { continue }
            for _ in 0..<(4 * Self.scale) {
                let (offset, size, values) = fields[Int.random(in: 0..<fields.count, using: &rng)]
                let value = values[Int.random(in: 0..<values.count, using: &rng)]
                var data = editor.data(of: ihdr)
                for i in 0..<size { data[offset + i] = UInt8(truncatingIfNeeded: value >> UInt32(8 * (size - 1 - i))) }
                var edited = editor
                edited.replaceData(of: ihdr, with: data)
                check(edited.bytes, "\(path): IHDR byte \(offset) set to \(value)", seed: rng.next(), tally: &tally)
            }
        }
        XCTAssertGreaterThan(tally["invalidData", default: 0], 100, "\(tally)")
        XCTAssertGreaterThan(tally["limitExceeded", default: 0], 5, "\(tally)")
    }
}
