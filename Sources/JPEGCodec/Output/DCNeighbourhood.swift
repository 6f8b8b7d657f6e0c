/// The raw DC values of a block and its eight neighbours (edges replicated, as libjpeg does), which
/// ``BlockSmoothing`` predicts from. A row of blocks is walked left to right, so each step slides
/// the window one column and loads only the three new values.
struct DCNeighbourhood {
    var aboveLeft: Int64, above: Int64, aboveRight: Int64
    var left: Int64, centre: Int64, right: Int64
    var belowLeft: Int64, below: Int64, belowRight: Int64
}

extension DCNeighbourhood {
    /// The neighbourhood of (`row`, `column`) in `window` for a component of `width` × `height` blocks.
    @inline(__always)
    init(_ window: CoefficientWindow, row: Int, column: Int, width: Int, height: Int) {
        let up = max(row - 1, 0), down = min(row + 1, height - 1)
        let leftColumn = max(column - 1, 0), rightColumn = min(column + 1, width - 1)
        @inline(__always) func dc(_ r: Int, _ c: Int) -> Int64 { Int64(window.rawBlock(row: r, column: c)[0]) }
        aboveLeft = dc(up, leftColumn); above = dc(up, column); aboveRight = dc(up, rightColumn)
        left = dc(row, leftColumn); centre = dc(row, column); right = dc(row, rightColumn)
        belowLeft = dc(down, leftColumn); below = dc(down, column); belowRight = dc(down, rightColumn)
    }

    /// Moves one block to the right, to (`row`, `column`), loading the new right-hand column.
    @inline(__always)
    mutating func slide(_ window: CoefficientWindow, row: Int, column: Int, width: Int, height: Int) {
        let up = max(row - 1, 0), down = min(row + 1, height - 1)
        let rightColumn = min(column + 1, width - 1)
        aboveLeft = above; above = aboveRight; aboveRight = Int64(window.rawBlock(row: up, column: rightColumn)[0])
        left = centre; centre = right; right = Int64(window.rawBlock(row: row, column: rightColumn)[0])
        belowLeft = below; below = belowRight; belowRight = Int64(window.rawBlock(row: down, column: rightColumn)[0])
    }
}
