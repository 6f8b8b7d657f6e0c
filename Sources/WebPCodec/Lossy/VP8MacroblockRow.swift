/// What the parser learns about the macroblocks of one row before they are reconstructed:
/// prediction modes, segment, and which blocks have coefficients (the coefficients themselves
/// are in the decoder's `RowState`).
struct VP8MacroblockRow {
    /// 16 sub-block modes per macroblock (4×4 prediction), or the 16×16 mode in entry 0.
    var lumaModes: [UInt8]
    var isSubblockPredicted: [Bool]
    var chromaModes: [UInt8]
    var segments: [UInt8]
    /// libwebp's `non_zero_y` / `non_zero_uv` bit codes (2 bits per block, the first in the high bits).
    var nonZeroLuma: [UInt32]
    var nonZeroChroma: [UInt32]
    /// No coefficient at all (skipped or all zero): inner edges are not filtered unless 4×4.
    var skipped: [Bool]

    init(macroblocks: Int) {
        lumaModes = [UInt8](repeating: 0, count: macroblocks * 16)
        isSubblockPredicted = [Bool](repeating: false, count: macroblocks)
        chromaModes = [UInt8](repeating: 0, count: macroblocks)
        segments = [UInt8](repeating: 0, count: macroblocks)
        nonZeroLuma = [UInt32](repeating: 0, count: macroblocks)
        nonZeroChroma = [UInt32](repeating: 0, count: macroblocks)
        skipped = [Bool](repeating: false, count: macroblocks)
    }
}

/// The contexts that carry from one macroblock row to the next (for retrying a row, they are
/// copied before it and restored if its data had not all arrived).
struct VP8RowContexts {
    /// Sub-block modes of the bottom row of each macroblock above (4 per macroblock).
    var modesAbove: [UInt8]
    /// libwebp's `nz` bits of the macroblock above: 4 luma columns, 2 U, 2 V.
    var nonZeroAbove: [UInt8]
    /// Whether the Y2 block of the macroblock above had coefficients.
    var nonZeroDCAbove: [UInt8]

    init(macroblocks: Int) {
        modesAbove = [UInt8](repeating: 0, count: macroblocks * 4)
        nonZeroAbove = [UInt8](repeating: 0, count: macroblocks)
        nonZeroDCAbove = [UInt8](repeating: 0, count: macroblocks)
    }
}
