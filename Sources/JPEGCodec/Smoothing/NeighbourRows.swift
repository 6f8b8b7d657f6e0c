/// The block rows whose DC values libjpeg-turbo's block smoothing (jdcoefct.c, 2.1 and later)
/// reads as the two rows above and the two rows below block row `row` of a component.
///
/// libjpeg-turbo counts block rows per iMCU row with the rows the last iMCU row really has
/// (`height % V`, or V) for that last iMCU row, and V for all others, and replicates the edge rows
/// of that count. Two consequences, kept here because its pictures depend on them:
/// - in the next-to-last iMCU row, the second row below can be the MCU padding row (a row of
///   blocks past the component's height that only interleaved scans give DC values), and
/// - in a picture of two iMCU rows whose last one holds a single block row (V = 2), that row's
///   second row above is the row right above it.
///
/// Example: 4:2:0 luma of a 64×20 picture (3 block rows, 2 iMCU rows, V = 2): row 1 reads rows
/// 0, 0 | 2, 3 (3 is padding); row 2 reads rows 1, 1 | 2, 2.
struct NeighbourRows: Equatable {
    var up2: Int, up1: Int, row: Int, down1: Int, down2: Int

    /// The rows around `row` (inside the component's height) of `component`, in a frame of `iMCURows` iMCU rows.
    init(row: Int, component: ComponentLayout, iMCURows: Int) {
        let v = max(component.verticalSampling, 1)
        let iMCURow = row / v
        let lastRows = component.heightInBlocks % v
        let rowsInIMCU = iMCURow < iMCURows - 1 || lastRows == 0 ? v : lastRows
        // The row's index and the row count as libjpeg-turbo computes them.
        let position = iMCURow * rowsInIMCU + (row - iMCURow * v)
        let count = rowsInIMCU * iMCURows
        self.row = row
        up1 = position > 0 ? row - 1 : row
        up2 = position > 1 ? row - 2 : up1
        down1 = position < count - 1 ? row + 1 : row
        down2 = position < count - 2 ? row + 2 : down1
    }
}
