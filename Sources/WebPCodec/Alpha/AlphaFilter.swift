/// The prediction filters of an `ALPH` chunk (WebP container spec, "Alpha"): each value is
/// stored as the difference from a prediction made from its left (A), top (B) and top-left (C)
/// neighbours, modulo 256.
///
/// Borders: (0, 0) predicts 0; the rest of the top row predicts A (left); the left column
/// predicts B (top), for every method (as libwebp's unfilters do).
enum AlphaFilter: Int {
    case none = 0
    /// Predict A.
    case horizontal = 1
    /// Predict B.
    case vertical = 2
    /// Predict clip(A + B - C).
    case gradient = 3

    /// Unfilters row `y` (`row`, in place) given the already unfiltered row above (`previous`, nil for y = 0).
    func unfilter(row: UnsafeMutableBufferPointer<UInt8>, previous: UnsafeBufferPointer<UInt8>?) {
        let width = row.count
        guard self != .none, width > 0 else { return }
        guard let previous else {
            // Top row: every method predicts from the left, starting at 0.
            var left: UInt8 = 0
            for x in 0..<width { left = left &+ row[x]; row[x] = left }
            return
        }
        switch self {
        case .none:
            return
        case .horizontal:
            var left = previous[0]
            for x in 0..<width { left = left &+ row[x]; row[x] = left }
        case .vertical:
            for x in 0..<width { row[x] = row[x] &+ previous[x] }
        case .gradient:
            row[0] = row[0] &+ previous[0]
            for x in 1..<width {
                let prediction = Int(row[x - 1]) + Int(previous[x]) - Int(previous[x - 1])
                row[x] = row[x] &+ UInt8(min(max(prediction, 0), 255))
            }
        }
    }
}
