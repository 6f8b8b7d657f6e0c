import Deflate
import TestSupport

/// Seeded inputs for ``Deflater`` tests and the distinct decompressed contents of the fixtures.
enum DeflaterTestData {
    /// `count` random bytes (incompressible).
    static func random(_ count: Int, seed: UInt64) -> [UInt8] {
        var rng = SeededGenerator(seed: seed)
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) }
    }

    /// `count` highly repetitive bytes: a short random motif repeated, with an occasional random
    /// byte changed and runs of one value, so matches of every length and distance appear.
    static func repetitive(_ count: Int, seed: UInt64) -> [UInt8] {
        var rng = SeededGenerator(seed: seed)
        let motif = (0..<37).map { _ in UInt8.random(in: 0...255, using: &rng) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        while bytes.count < count {
            switch Int.random(in: 0..<10, using: &rng) {
            case 0: bytes += [UInt8](repeating: UInt8.random(in: 0...255, using: &rng), count: Int.random(in: 1...600, using: &rng))
            case 1: bytes.append(UInt8.random(in: 0...255, using: &rng))
            case 2 where bytes.count > 40_000:
                // A copy from far back, up to the 32 KiB window edge and beyond.
                let start = Int.random(in: (bytes.count - 40_000)..<(bytes.count - 100), using: &rng)
                bytes += bytes[start..<(start + 100)]
            default: bytes += motif[0..<Int.random(in: 1...37, using: &rng)]
            }
        }
        return Array(bytes.prefix(count))
    }

    /// The distinct outputs of the fixtures (one per SHA-256), decoded with the Inflater and
    /// checked against the recorded hash; fixtures whose output is larger than `maxSize` are skipped.
    static func fixtureOutputs(maxSize: Int = .max) throws -> [(name: String, bytes: [UInt8])] {
        var seen = Set<String>()
        var outputs: [(String, [UInt8])] = []
        for fixture in try DeflateFixture.all() where fixture.size <= maxSize && !seen.contains(fixture.sha256) {
            let output = try Inflater.decompress(try fixture.bytes(), format: fixture.format)
            guard Digest.sha256(output) == fixture.sha256 else { continue }
            seen.insert(fixture.sha256)
            outputs.append((fixture.name, output))
        }
        return outputs
    }
}
