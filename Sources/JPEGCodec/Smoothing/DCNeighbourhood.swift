/// The raw DC values around a block that ``BlockSmoothing`` predicts from: five block rows (two
/// above, the block's own, two below, as ``NeighbourRows`` picks them) by five columns (two each
/// side, clamped to the component's columns as libjpeg-turbo does). A block row is walked left to
/// right, so each step slides the window one column and loads only the five new values.
struct DCNeighbourhood {
    /// One column of the window, top to bottom.
    struct Column {
        var up2: Int, up1: Int, centre: Int, down1: Int, down2: Int
    }

    /// Columns −2, −1, 0, +1 and +2 from the block.
    var farLeft: Column, left: Column, centre: Column, right: Column, farRight: Column
}

extension DCNeighbourhood {
    /// The neighbourhood of the block at `column` of the block row `rows` describes, in `window`
    /// for a component `width` blocks wide.
    @inline(__always)
    init(_ window: CoefficientWindow, rows: NeighbourRows, column: Int, width: Int) {
        farLeft = Self.column(window, rows, min(max(column - 2, 0), width - 1))
        left = Self.column(window, rows, min(max(column - 1, 0), width - 1))
        centre = Self.column(window, rows, min(column, width - 1))
        right = Self.column(window, rows, min(column + 1, width - 1))
        farRight = Self.column(window, rows, min(column + 2, width - 1))
    }

    /// Moves one block to the right, to `column`, loading the new far-right column.
    @inline(__always)
    mutating func slide(_ window: CoefficientWindow, rows: NeighbourRows, column: Int, width: Int) {
        farLeft = left
        left = centre
        centre = right
        right = farRight
        farRight = Self.column(window, rows, min(column + 2, width - 1))
    }

    /// The 25 values in lanes 5 · row + column (row −2 and column −2 first), as ``SmoothingKernels`` lays out its weights.
    var lanes: SIMD32<Int32> {
        var lanes = SIMD32<Int32>()
        // No array of the columns: this runs for every predicted block.
        @inline(__always) func put(_ c: Int, _ column: Column) {
            lanes[c] = Int32(truncatingIfNeeded: column.up2)
            lanes[5 + c] = Int32(truncatingIfNeeded: column.up1)
            lanes[10 + c] = Int32(truncatingIfNeeded: column.centre)
            lanes[15 + c] = Int32(truncatingIfNeeded: column.down1)
            lanes[20 + c] = Int32(truncatingIfNeeded: column.down2)
        }
        put(0, farLeft)
        put(1, left)
        put(2, centre)
        put(3, right)
        put(4, farRight)
        return lanes
    }

    @inline(__always)
    private static func column(_ window: CoefficientWindow, _ rows: NeighbourRows, _ column: Int) -> Column {
        @inline(__always) func dc(_ row: Int) -> Int { Int(window.rawBlock(row: row, column: column)[0]) }
        return Column(up2: dc(rows.up2), up1: dc(rows.up1), centre: dc(rows.row), down1: dc(rows.down1), down2: dc(rows.down2))
    }
}
