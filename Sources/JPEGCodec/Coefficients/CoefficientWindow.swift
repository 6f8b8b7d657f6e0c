/// Where one component's decoded blocks are stored: a run of block rows, each `blocksPerLine`
/// blocks of 64 `Int16` coefficients in natural order.
///
/// Streaming sequential decoding keeps one iMCU row (e.g. 2 block rows of Y for 4:2:0) and moves
/// `firstBlockRow` down as rows finish; full-image storage (multi-scan files) has `firstBlockRow` 0.
struct CoefficientWindow {
    /// The block at (`firstBlockRow`, 0).
    var base: UnsafeMutablePointer<Int16>
    /// Blocks in one block row.
    var blocksPerLine: Int
    /// The block row stored at `base`.
    var firstBlockRow: Int

    /// The block at (`row`, `column`); the caller keeps `row` inside the window.
    @inline(__always)
    func block(row: Int, column: Int) -> UnsafeMutablePointer<Int16> {
        base + ((row - firstBlockRow) * blocksPerLine + column) &* 64
    }
}
