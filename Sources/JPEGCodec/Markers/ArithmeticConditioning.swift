import ImageCore

/// The arithmetic coding conditioning tables set by DAC segments (T.81 B.2.4.3, F.1.4.4):
/// per DC table the bounds L and U of the "small difference" class, per AC table the band
/// split Kx. Tables a file never defines keep the defaults L = 0, U = 1, Kx = 5.
struct ArithmeticConditioning {
    /// Conditioning tables per kind; scans select them with 4-bit selectors (0...15).
    static let tableCount = 16

    /// DC tables: lower bound L (0...15).
    private(set) var dcLower = [Int](repeating: 0, count: tableCount)
    /// DC tables: upper bound U (L...15).
    private(set) var dcUpper = [Int](repeating: 1, count: tableCount)
    /// AC tables: Kx, the last zig-zag index coded with the low-band magnitude statistics.
    private(set) var acBandSplit = [Int](repeating: 5, count: tableCount)

    /// Parses a DAC payload: pairs of (Tc << 4 | Tb, value), as libjpeg reads them.
    mutating func parse(_ reader: inout SegmentReader) throws {
        guard reader.remaining % 2 == 0 else {
            throw reader.invalid("length leaves \(reader.remaining) bytes, not whole (table, value) pairs")
        }
        while reader.remaining > 0 {
            let selectorOffset = reader.offset
            let selector = Int(try reader.u8())
            let value = Int(try reader.u8())
            guard selector < 2 * Self.tableCount else {
                throw ImageDecodingError(.invalidData, at: selectorOffset,
                                         "DAC selects table class \(selector >> 4) slot \(selector & 15); only DC (0) and AC (1) tables 0...15 exist")
            }
            if selector >= Self.tableCount {
                // libjpeg takes any Kx; T.81 asks for 1...63, and larger values just mean "every index".
                acBandSplit[selector - Self.tableCount] = value
            } else {
                let lower = value & 15, upper = value >> 4
                guard lower <= upper else {
                    throw ImageDecodingError(.invalidData, at: selectorOffset + 1,
                                             "DAC gives DC table \(selector) L=\(lower) above U=\(upper)")
                }
                dcLower[selector] = lower
                dcUpper[selector] = upper
            }
        }
    }
}
