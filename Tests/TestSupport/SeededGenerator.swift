/// A small deterministic random generator (SplitMix64) so sweeps are repeatable.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Makes a generator; the same seed gives the same sequence.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Ways of cutting a byte array into the pieces a network might deliver.
public enum Chunking {
    /// Pieces of `size` bytes (the last may be shorter).
    public static func fixed(_ bytes: [UInt8], size: Int) -> [ArraySlice<UInt8>] {
        stride(from: 0, to: bytes.count, by: max(size, 1)).map { bytes[$0..<min($0 + max(size, 1), bytes.count)] }
    }

    /// Pieces of random sizes from 1 to `maxSize`, repeatable for a seed.
    public static func random(_ bytes: [UInt8], seed: UInt64, maxSize: Int = 1000) -> [ArraySlice<UInt8>] {
        var rng = SeededGenerator(seed: seed)
        var pieces: [ArraySlice<UInt8>] = []
        var start = 0
        while start < bytes.count {
            let size = Int.random(in: 1...max(maxSize, 1), using: &rng)
            pieces.append(bytes[start..<min(start + size, bytes.count)])
            start += size
        }
        return pieces
    }
}
