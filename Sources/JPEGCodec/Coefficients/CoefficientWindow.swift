/// Where one component's decoded blocks are stored: a run of block rows, each `blocksPerLine`
/// blocks of 64 dequantized coefficients (`Int32`, coefficient × quantizer) in natural order.
///
/// Streaming sequential decoding keeps one iMCU row (e.g. 2 block rows of Y for 4:2:0) and moves
/// `firstBlockRow` down as rows finish; full-image storage (multi-scan files) has `firstBlockRow` 0.
///
/// Beside each block, a ``BlockShape`` byte says where its non-zero coefficients are, so the IDCT
/// can skip work; blocks never decoded are all zero, which shape 0 (DC only) describes.
struct CoefficientWindow {
    /// The block at (`firstBlockRow`, 0).
    var base: UnsafeMutablePointer<Int32>
    /// The shape byte of the block at (`firstBlockRow`, 0), one per block in the same order.
    var shapes: UnsafeMutablePointer<UInt8>
    /// Blocks in one block row.
    var blocksPerLine: Int
    /// The block row stored at `base`.
    var firstBlockRow: Int

    /// The block at (`row`, `column`); the caller keeps `row` inside the window.
    @inline(__always)
    func block(row: Int, column: Int) -> UnsafeMutablePointer<Int32> {
        base + ((row - firstBlockRow) * blocksPerLine + column) &* 64
    }

    /// The shape byte of the block at (`row`, `column`).
    @inline(__always)
    func shape(row: Int, column: Int) -> UnsafeMutablePointer<UInt8> {
        shapes + (row - firstBlockRow) * blocksPerLine + column
    }
}

/// Where a block's non-zero coefficients lie, recorded by the entropy decoder for the IDCT.
enum BlockShape {
    /// Only the DC coefficient may be non-zero: the block is flat.
    static let dcOnly: UInt8 = 0
    /// Non-zero coefficients only among the first 10 in zig-zag order, all inside the top-left
    /// 4×4 (zig-zag index 10 is row 4): rows and columns 4...7 of the input are zero.
    static let topLeft4x4: UInt8 = 1
    /// Anything else.
    static let full: UInt8 = 2

    /// The shape for a block whose last non-zero coefficient has zig-zag index `lastIndex`.
    @inline(__always)
    static func forLastIndex(_ lastIndex: Int) -> UInt8 {
        lastIndex == 0 ? dcOnly : (lastIndex <= 9 ? topLeft4x4 : full)
    }
}
