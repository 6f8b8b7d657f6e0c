/// Per row, the span of columns that changed since the row was last redrawn: the smallest range
/// holding every column marked (marks far apart in one row redraw what lies between; scans
/// advance left to right, so marks in a row are next to each other in practice).
///
/// Example: marking columns 3..<5 and then 9..<12 of row 7 leaves row 7 dirty in 3..<12.
final class DirtyColumnSpans {
    /// Rows tracked.
    let rowCount: Int
    /// Per row, the first and one past the last dirty column; clean rows hold (Int.max, 0).
    private let bounds: UnsafeMutablePointer<Int>

    /// Every row of `rowCount` starts clean.
    init(rowCount: Int) {
        self.rowCount = rowCount
        bounds = .allocate(capacity: 2 * max(rowCount, 1))
        for row in 0..<max(rowCount, 1) { (bounds + 2 * row).initialize(to: Int.max); (bounds + 2 * row + 1).initialize(to: 0) }
    }

    deinit { bounds.deallocate() }

    /// Adds `columns` to row `row`'s span (the caller keeps `row` inside).
    @inline(__always)
    func mark(row: Int, columns: Range<Int>) {
        jpegInvariant(row >= 0 && row < rowCount, "dirty row \(row) outside 0..<\(rowCount)")
        guard !columns.isEmpty else { return }
        bounds[2 * row] = min(bounds[2 * row], columns.lowerBound)
        bounds[2 * row + 1] = max(bounds[2 * row + 1], columns.upperBound)
    }

    /// Row `row`'s span, leaving the row clean; nil if it was clean.
    @inline(__always)
    func take(row: Int) -> Range<Int>? {
        jpegInvariant(row >= 0 && row < rowCount, "dirty row \(row) outside 0..<\(rowCount)")
        let low = bounds[2 * row], high = bounds[2 * row + 1]
        guard low < high else { return nil }
        bounds[2 * row] = Int.max
        bounds[2 * row + 1] = 0
        return low..<high
    }
}
