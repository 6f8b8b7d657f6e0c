import TestSupport
@testable import JPEGCodec

extension HuffmanTableDefinition {
    /// A random prefix code over `symbols` (in the order they get codes, short codes first) that,
    /// like every table the builder accepts, leaves the all-ones code free; symbols that do not
    /// fit in 16 bits are left out. For the entropy decoders' twin tests.
    static func random(_ symbols: [UInt8], using rng: inout SeededGenerator) -> HuffmanTableDefinition {
        var counts = [UInt8](repeating: 0, count: 16)
        var available = 2, placed = 0
        for length in 1...16 where placed < symbols.count {
            let most = min(available - 1, symbols.count - placed)
            // Spread the symbols over the lengths; the last length takes what is left if it can.
            let count = length == 16 ? most : Int.random(in: 0...most, using: &rng)
            counts[length - 1] = UInt8(count)
            placed += count
            available = min((available - count) * 2, 1 << 17)
        }
        return HuffmanTableDefinition(counts: counts, symbols: Array(symbols.prefix(placed)))
    }
}
