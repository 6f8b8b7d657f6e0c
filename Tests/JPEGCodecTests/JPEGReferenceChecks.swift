import ImageCore
import JPEGCodec
import TestSupport

/// Checks shared by the sequential and progressive conformance, scaling and mutation tests.
enum JPEGReferenceChecks {
    /// Files up to this size are also fed one byte at a time.
    static let oneByteFeedingLimit = 16_000

    /// The usual ways to split a file: whole, 7 and 4096 bytes, seeded random pieces of up to 900
    /// bytes, and 1 byte for files up to ``oneByteFeedingLimit``.
    static func chunkings(_ bytes: [UInt8], seed: UInt64) -> [(String, [ArraySlice<UInt8>])] {
        var chunkings: [(String, [ArraySlice<UInt8>])] = [
            ("whole", [bytes[...]]),
            ("7-byte", Chunking.fixed(bytes, size: 7)),
            ("4096-byte", Chunking.fixed(bytes, size: 4096)),
            ("random", Chunking.random(bytes, seed: seed, maxSize: 900)),
        ]
        if bytes.count <= oneByteFeedingLimit { chunkings.append(("1-byte", Chunking.fixed(bytes, size: 1))) }
        return chunkings
    }

    /// Decodes `bytes` fed in each of `chunkings` and describes every result that differs from
    /// `entry`'s reference (size, pixels or an error); empty when all match.
    static func mismatches(_ entry: CorpusManifest.Entry, bytes: [UInt8],
                           chunkings: [(String, [ArraySlice<UInt8>])],
                           options: DecodingOptions = DecodingOptions()) -> [String] {
        var failures: [String] = []
        for (name, pieces) in chunkings {
            do {
                let image = try JPEGCorpus.decode(pieces, options: options)
                if image.width != entry.reference?.width || image.height != entry.reference?.height {
                    failures.append("\(entry.path) \(name): size \(image.width)×\(image.height)")
                } else if Digest.sha256(image.pixels) != entry.reference?.sha256 {
                    failures.append("\(entry.path) \(name): pixels differ from the reference")
                }
            } catch {
                failures.append("\(entry.path) \(name): \(error)")
            }
        }
        return failures
    }

    /// Decodes each reference's file at its scale, fed in 1000-byte pieces (so the scaled path is
    /// also exercised incrementally), and describes every result that differs from `djpeg -scale`.
    static func scaledMismatches(_ references: [ExtraJPEGReferences.Scaled], threads: Int = 1,
                                 bytes: (String) throws -> [UInt8]) throws -> [String] {
        var failures: [String] = []
        for reference in references {
            guard let scale = ScaleFactor(rawValue: reference.scale) else {
                failures.append("\(reference.path): bad scale \(reference.scale)")
                continue
            }
            let file = try bytes(reference.path)
            do {
                let image = try JPEGCorpus.decode(Chunking.fixed(file, size: 1000), options: DecodingOptions(scale: scale, maximumThreads: threads))
                if image.width != reference.width || image.height != reference.height {
                    failures.append("\(reference.path) 1/\(reference.scale): size \(image.width)×\(image.height)")
                } else if Digest.sha256(image.pixels) != reference.sha256 {
                    failures.append("\(reference.path) 1/\(reference.scale): pixels differ")
                }
            } catch {
                failures.append("\(reference.path) 1/\(reference.scale): \(error)")
            }
        }
        return failures
    }

    /// What a mutation sweep saw: clean decodes, errors by kind, and problems that must not happen
    /// (an `internal` error, or a picture after an error that is not whole).
    struct MutationOutcome {
        var successes = 0
        var errors: [ImageDecodingError.Kind: Int] = [:]
        var problems: [String] = []
    }

    /// Applies `perFile` seeded mutations (bit flips, byte overwrites, cuts, extreme values where a
    /// length field may be) to each corpus file and decodes each at a random scale in random pieces.
    static func mutationSweep(_ paths: [String], perFile: Int, seed: UInt64, threads: Int = 1,
                              load: (String) throws -> [UInt8] = JPEGCorpus.bytes) throws -> MutationOutcome {
        var rng = SeededGenerator(seed: seed)
        var outcome = MutationOutcome()
        for path in paths {
            let original = try load(path)
            for _ in 0..<perFile {
                var bytes = original
                let position = Int.random(in: 0..<bytes.count, using: &rng)
                switch Int.random(in: 0..<4, using: &rng) {
                case 0: bytes[position] ^= UInt8(1) << UInt8.random(in: 0...7, using: &rng)
                case 1: bytes[position] = UInt8.random(in: 0...255, using: &rng)
                case 2: bytes.removeSubrange(position...)
                default:
                    // Overwrite what may be a length field or marker parameter with an extreme value.
                    bytes[position] = [0x00, 0xFF, 0x01, 0x80][Int.random(in: 0..<4, using: &rng)]
                    if position + 1 < bytes.count { bytes[position + 1] = UInt8.random(in: 0...255, using: &rng) }
                }
                let options = DecodingOptions(scale: ScaleFactor.allCases.randomElement(using: &rng) ?? .full,
                                              maximumThreads: threads)
                let decoder = JPEGDecoder(options: options)
                do {
                    for piece in Chunking.random(bytes, seed: rng.next(), maxSize: 300) { try decoder.feed(piece) }
                    _ = try decoder.finish()
                    outcome.successes += 1
                } catch let error as ImageDecodingError {
                    if error.kind == .internal { outcome.problems.append("\(path): \(error)") }
                    outcome.errors[error.kind, default: 0] += 1
                    // Whatever was decoded stays available as a whole picture.
                    if let header = decoder.header, let image = decoder.currentImage(),
                       image.pixels.count != header.width * header.height * header.pixelFormat.bytesPerPixel {
                        outcome.problems.append("\(path): picture after \(error) is not whole")
                    }
                } catch {
                    outcome.problems.append("\(path): unexpected \(error)")
                }
            }
        }
        return outcome
    }
}
