/// The four quantization table slots defined by DQT segments (T.81 B.2.4.1), values in natural (row-major) order.
struct QuantizationTables {
    /// Slot `i` holds 64 values, or nil while undefined.
    private(set) var slots: [[UInt16]?] = [nil, nil, nil, nil]

    /// Parses a DQT payload, which may define several tables.
    mutating func parse(_ reader: inout SegmentReader) throws {
        while reader.remaining > 0 {
            let spec = try reader.u8()
            let precision = spec >> 4, slot = Int(spec & 15)
            guard slot < 4 else { throw reader.invalid("defines quantization table \(slot); only 0...3 exist") }
            var table = [UInt16](repeating: 0, count: 64)
            for zigzagIndex in 0..<64 {
                // Like libjpeg, any non-zero precision nibble means 16-bit entries.
                let value = precision == 0 ? Int(try reader.u8()) : try reader.u16()
                table[ZigZag.naturalIndex(zigzagIndex)] = UInt16(value)
            }
            slots[slot] = table
        }
    }
}
