/// A Huffman table as a DHT segment defines it (T.81 B.2.4.2): code counts per length and the symbols.
struct HuffmanTableDefinition: Sendable, Hashable {
    /// `counts[l - 1]` = number of codes of length l, for l = 1...16.
    var counts: [UInt8]
    /// Symbols in order of increasing code length.
    var symbols: [UInt8]
}

/// The eight Huffman table slots (DC and AC, 0...3).
struct HuffmanTableSlots {
    /// DC definitions by slot.
    private(set) var dc: [HuffmanTableDefinition?] = [nil, nil, nil, nil]
    /// AC definitions by slot.
    private(set) var ac: [HuffmanTableDefinition?] = [nil, nil, nil, nil]
    /// Bumped on every definition so derived tables can be rebuilt only when their slot changed.
    private(set) var generation = 0

    /// Parses a DHT payload, which may define several tables.
    mutating func parse(_ reader: inout SegmentReader) throws {
        while reader.remaining > 16 {
            let spec = try reader.u8()
            let tableClass = spec >> 4, slot = Int(spec & 15)
            guard tableClass <= 1, slot < 4 else {
                throw reader.invalid("defines Huffman table class \(tableClass) slot \(slot); class must be 0 or 1 and slot 0...3")
            }
            let counts = try reader.bytes(16)
            let total = counts.reduce(0) { $0 + Int($1) }
            guard total <= 256, total <= reader.remaining else {
                throw reader.invalid("table declares \(total) symbols with \(reader.remaining) bytes left (at most 256)")
            }
            let definition = HuffmanTableDefinition(counts: counts, symbols: try reader.bytes(total))
            if tableClass == 0 { dc[slot] = definition } else { ac[slot] = definition }
            generation += 1
        }
        guard reader.remaining == 0 else { throw reader.invalid("\(reader.remaining) stray byte(s) after the last table") }
    }
}
