import TestSupport

/// Random complete prefix codes for table-builder tests.
enum RandomCompleteCode {
    /// Code lengths over `count` symbols of a random complete code with `leaves` codewords of at
    /// most `maxLength` bits (leaves split at random, so Kraft's sum is exactly 1), given to
    /// random symbols; `symbol` (if any) is always one of them.
    static func lengths(count: Int, leaves: Int, maxLength: Int = 15, including symbol: Int? = nil,
                        using rng: inout SeededGenerator) -> [UInt8] {
        var codeLengths = [1, 1]
        while codeLengths.count < leaves {
            let index = Int.random(in: 0..<codeLengths.count, using: &rng)
            guard codeLengths[index] < maxLength else { continue }
            codeLengths[index] += 1
            codeLengths.append(codeLengths[index])
        }
        var symbols = Array(0..<count).filter { $0 != symbol }.shuffled(using: &rng)
        if let symbol { symbols.insert(symbol, at: 0) }
        var lengths = [UInt8](repeating: 0, count: count)
        for (symbol, length) in zip(symbols, codeLengths.shuffled(using: &rng)) { lengths[symbol] = UInt8(length) }
        return lengths
    }
}
