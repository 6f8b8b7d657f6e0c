extension ToneCurve {
    /// Largest `curv` table accepted (real profiles use up to 4096; 65536 is the 16-bit maximum).
    static let maximumTableEntries = 1 << 20

    /// Parses a `curv` or `para` element at `offset` (its type signature first). Returns the
    /// curve and the element's length in bytes (unpadded).
    static func parse(_ reader: ICCDataReader, at offset: Int, end: Int) throws -> (ToneCurve, Int) {
        let type = try reader.signature(offset)
        switch type {
        case .curveType:
            let count = Int(try reader.uInt32(offset + 8))
            guard count <= maximumTableEntries else {
                throw ICCProfileError(.limitExceeded, at: offset + 8, "curv has \(count) entries, limit \(maximumTableEntries)")
            }
            let length = 12 + 2 * count
            guard length <= end - offset else {
                throw ICCProfileError(.truncated, at: offset, "curv needs \(length) bytes, tag has \(end - offset)")
            }
            try reader.require(offset, length, "curv")
            switch count {
            case 0:
                return (.identity, length)
            case 1:
                // u8Fixed8Number gamma.
                return (.gamma(Double(try reader.uInt16(offset + 12)) / 256), length)
            default:
                var samples = [Double](repeating: 0, count: count)
                for index in 0..<count { samples[index] = Double(try reader.uInt16(offset + 12 + 2 * index)) / 65535 }
                return (.table(samples), length)
            }
        case .parametricCurveType:
            let function = Int(try reader.uInt16(offset + 8))
            let parameterCounts = [1, 3, 4, 5, 7]
            guard function < parameterCounts.count else {
                throw ICCProfileError(.invalidData, at: offset + 8, "para function type \(function), expected 0 ... 4")
            }
            let n = parameterCounts[function]
            let length = 12 + 4 * n
            guard length <= end - offset else {
                throw ICCProfileError(.truncated, at: offset, "para type \(function) needs \(length) bytes, tag has \(end - offset)")
            }
            let p = try reader.s15Fixed16Array(offset + 12, count: n) + [Double](repeating: 0, count: 7 - n)
            switch function {
            case 0:
                return (.gamma(p[0]), length)
            case 1, 2:
                // d is where a·x + b crosses zero (ICC.1 table 68); a = 0 makes it a constant.
                let d = p[1] == 0 ? 0 : -p[2] / p[1]
                return (.parametric(type: function, g: p[0], a: p[1], b: p[2], c: function == 2 ? p[3] : 0,
                                    d: d, e: 0, f: 0), length)
            default:
                return (.parametric(type: function, g: p[0], a: p[1], b: p[2], c: p[3], d: p[4], e: p[5], f: p[6]), length)
            }
        default:
            throw ICCProfileError(.invalidData, at: offset, "curve element has type '\(type)', expected 'curv' or 'para'")
        }
    }
}
