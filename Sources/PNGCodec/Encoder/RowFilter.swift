/// Applies the PNG 9.2 filters to one row for encoding (the inverse of ``RowUnfilter``).
enum RowFilter {
    /// Writes filtered bytes `start ..< count` of `row` into the same places of `output`. `prior`
    /// is the previous row (zeros for the first), `stride` the bytes per complete pixel (at least 1).
    static func apply(_ type: FilterType, row: UnsafePointer<UInt8>, prior: UnsafePointer<UInt8>,
                      output: UnsafeMutablePointer<UInt8>, count: Int, stride: Int, from start: Int = 0) {
        guard start < count else { return }
        for i in start..<count {
            let a: UInt8 = i >= stride ? row[i - stride] : 0
            let c: UInt8 = i >= stride ? prior[i - stride] : 0
            let b = prior[i]
            let predictor: UInt8
            switch type {
            case .none: predictor = 0
            case .sub: predictor = a
            case .up: predictor = b
            case .average: predictor = UInt8(truncatingIfNeeded: (UInt16(a) &+ UInt16(b)) >> 1)
            case .paeth: predictor = RowUnfilter.paeth(a, b, c)
            }
            output[i] = row[i] &- predictor
        }
    }

    /// The sum of the bytes read as signed magnitudes: `min(v, 256 - v)` (PNG 12.8).
    static func cost(_ bytes: UnsafePointer<UInt8>, count: Int) -> Int {
        var total = 0
        for i in 0..<count {
            let v = Int(bytes[i])
            total &+= v < 128 ? v : 256 - v
        }
        return total
    }
}
