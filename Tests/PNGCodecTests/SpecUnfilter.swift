/// PNG 9.2 reconstruction written as plainly as possible: the reference the filter kernels'
/// tests hold the decoder to.
enum SpecUnfilter {
    /// Rows of `filtered` bytes (filter bytes apart in `types`) with `stride` bytes per pixel.
    static func reconstruct(_ filtered: [[UInt8]], types: [UInt8], stride: Int) -> [UInt8] {
        var previous = [UInt8](repeating: 0, count: filtered[0].count)
        var out: [UInt8] = []
        for (row, type) in zip(filtered, types) {
            var current = [UInt8](repeating: 0, count: row.count)
            for i in 0..<row.count {
                let a = i >= stride ? Int(current[i - stride]) : 0
                let b = Int(previous[i])
                let c = i >= stride ? Int(previous[i - stride]) : 0
                let predictor: Int
                switch type {
                case 1: predictor = a
                case 2: predictor = b
                case 3: predictor = (a + b) / 2
                case 4:
                    let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                    predictor = (pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c)
                default: predictor = 0
                }
                current[i] = UInt8((Int(row[i]) + predictor) & 0xFF)
            }
            out += current
            previous = current
        }
        return out
    }
}
