// Shared by the fuzz targets (run-fuzzer.sh compiles this file into them) and by the tests that
// replay a fuzz finding in the same pieces.

/// Split points chosen by the fuzzer: pieces of 1–64 bytes covering `count` bytes, their sizes from
/// a small linear congruential sequence seeded by `seed` (the input's first two bytes).
public func fuzzPieces(seed: UInt32, count: Int) -> [Range<Int>] {
    var state = seed
    var pieces: [Range<Int>] = []
    var start = 0
    while start < count {
        state = state &* 1_103_515_245 &+ 12_345
        let length = Int(state >> 16) % 64 + 1
        pieces.append(start..<min(start + length, count))
        start += length
    }
    return pieces
}
