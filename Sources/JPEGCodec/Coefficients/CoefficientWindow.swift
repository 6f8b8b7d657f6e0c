/// Where one component's decoded blocks are stored: a run of block rows, each `blocksPerLine`
/// blocks of 64 `Int16` coefficients in natural order. Sequential storage holds dequantized
/// values (coefficient × quantizer kept to 16 bits, as libjpeg-turbo's SIMD dequantization
/// keeps them, ``block(row:column:)``); progressive storage holds raw values, libjpeg's JCOEF
/// (``rawBlock(row:column:)``), dequantized when drawn.
///
/// Streaming sequential decoding keeps one iMCU row (e.g. 2 block rows of Y for 4:2:0) and moves
/// `firstBlockRow` down as rows finish; full-image storage (multi-scan files) has `firstBlockRow` 0.
///
/// Beside each block, a ``BlockShape`` byte says where its non-zero coefficients are, so the IDCT
/// can skip work; blocks never decoded are all zero, which shape 0 (DC only) describes.
struct CoefficientWindow {
    /// The block at (`firstBlockRow`, 0), bound to `Int16`.
    var base: UnsafeMutableRawPointer
    /// Bytes per block: 128 (64 `Int16` coefficients).
    var blockBytes: Int
    /// The shape byte of the block at (`firstBlockRow`, 0), one per block in the same order
    /// (sequential storage only).
    var shapes: UnsafeMutablePointer<UInt8>
    /// Progressive storage only: per block, bit k set when the coefficient at zig-zag position k
    /// (1...63) is non-zero. AC refinement (G.1.2.3) needs to know which coefficients have
    /// history; the mask answers without loading and testing 63 coefficients per block.
    var nonZeroMasks: UnsafeMutablePointer<UInt64>
    /// Blocks in one block row.
    var blocksPerLine: Int
    /// The block row stored at `base`.
    var firstBlockRow: Int
    /// Block rows stored from `firstBlockRow` on (checked only by invariant-checking builds).
    var rowCount = Int.max

    /// Traps in invariant-checking builds when (`row`, `column`) lies outside the window.
    @inline(__always)
    private func checkInside(_ row: Int, _ column: Int) {
        jpegInvariant(row >= firstBlockRow && row - firstBlockRow < rowCount && column >= 0 && column < blocksPerLine,
                      "block (\(row), \(column)) outside the window of rows \(firstBlockRow)..<\(firstBlockRow &+ rowCount), \(blocksPerLine) columns")
    }

    /// The dequantized block at (`row`, `column`) of sequential storage; the caller keeps `row`
    /// inside the window.
    @inline(__always)
    func block(row: Int, column: Int) -> UnsafeMutablePointer<Int16> {
        checkInside(row, column)
        return (base + ((row - firstBlockRow) * blocksPerLine + column) &* blockBytes).assumingMemoryBound(to: Int16.self)
    }

    /// The raw block at (`row`, `column`) of `Int16` (progressive) storage.
    @inline(__always)
    func rawBlock(row: Int, column: Int) -> UnsafeMutablePointer<Int16> {
        checkInside(row, column)
        return (base + ((row - firstBlockRow) * blocksPerLine + column) &* blockBytes).assumingMemoryBound(to: Int16.self)
    }

    /// The non-zero mask of the block at (`row`, `column`) (progressive storage).
    @inline(__always)
    func nonZeroMask(row: Int, column: Int) -> UnsafeMutablePointer<UInt64> {
        checkInside(row, column)
        return nonZeroMasks + (row - firstBlockRow) * blocksPerLine + column
    }

    /// The shape byte of the block at (`row`, `column`).
    @inline(__always)
    func shape(row: Int, column: Int) -> UnsafeMutablePointer<UInt8> {
        checkInside(row, column)
        return shapes + (row - firstBlockRow) * blocksPerLine + column
    }
}

/// Where a block's non-zero coefficients lie, recorded by the entropy decoder for the IDCT.
///
/// The entropy decoders' shapes are sets of three bits, so that two records of one block join by
/// OR: ``someAC`` (an AC coefficient was written), ``rightColumns`` (one in columns 4...7) and
/// ``lowerRows`` (one in rows 4...7). ``triangle`` is progressive drawing's own.
enum BlockShape {
    /// Only the DC coefficient may be non-zero: the block is flat.
    static let dcOnly: UInt8 = 0
    /// Bit: some AC coefficient may be non-zero.
    static let someAC: UInt8 = 1
    /// Bit: a coefficient in columns 4...7 may be non-zero.
    static let rightColumns: UInt8 = 2
    /// Bit: a coefficient in rows 4...7 may be non-zero.
    static let lowerRows: UInt8 = 4
    /// Non-zero coefficients only inside the top-left 4×4: rows and columns 4...7 are zero.
    static let topLeft4x4: UInt8 = someAC
    /// Rows 4...7 are zero (columns 4...7 need not be).
    static let topRows: UInt8 = someAC | rightColumns
    /// Columns 4...7 are zero (rows 4...7 need not be).
    static let leftColumns: UInt8 = someAC | lowerRows
    /// Anything else.
    static let full: UInt8 = someAC | rightColumns | lowerRows
    /// Progressive drawing only: non-zero values only at natural indices 0, 1, 2, 8, 9, 16 (zig-zag
    /// 0...5, the ones preview smoothing predicts), drawn by ``TriangleInverseDCT``.
    static let triangle: UInt8 = 8

    /// The shape for a block whose written coefficients have natural indices whose OR is `mask`
    /// (0 when only the DC was written): bit 2 of an index is column ≥ 4, bit 5 row ≥ 4.
    @inline(__always)
    static func forIndexMask(_ mask: Int) -> UInt8 {
        let bits = ((mask &>> 1) & Int(rightColumns)) | ((mask &>> 3) & Int(lowerRows))
        return UInt8(truncatingIfNeeded: bits) | (mask == 0 ? dcOnly : someAC)
    }

    /// The shape for a block whose last non-zero coefficient has zig-zag index `lastIndex` (every
    /// index up to it counted as written).
    @inline(__always)
    static func forLastIndex(_ lastIndex: Int) -> UInt8 {
        // Zig-zag 1...9 lie in the top-left 4×4, 10...13 in columns 0...3 (10 is row 4), 14 is column 4.
        lastIndex == 0 ? dcOnly : (lastIndex <= 9 ? topLeft4x4 : (lastIndex <= 13 ? leftColumns : full))
    }
}
