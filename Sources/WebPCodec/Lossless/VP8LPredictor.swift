/// The inverse predictor transform (RFC 9649 section 4.1): each pixel is a residual added to a
/// prediction from its already-decoded neighbours L (left), T (top), TL, TR.
///
/// Borders as libwebp does them: the top-left pixel predicts 0xFF000000, the rest of the top row
/// predicts L, the left column predicts T, and the rightmost pixel's TR is the row's first pixel.
/// Modes 14 and 15 (unused by the spec) predict 0xFF000000 like mode 0.
enum VP8LPredictor {
    /// Opaque black, the prediction of mode 0.
    static let black: UInt32 = 0xFF00_0000

    /// Undoes row `y` in place; `previous` holds row `y - 1` after its own inverse.
    static func undo(row: UnsafeMutableBufferPointer<UInt32>, previous: UnsafeMutableBufferPointer<UInt32>, y: Int,
                     width: Int, sizeBits: Int, blocksPerRow: Int, modes: [UInt32]) {
        typealias P = VP8LPixelArithmetic
        if y == 0 {
            row[0] = P.add(row[0], black)
            for x in 1..<max(width, 1) { row[x] = P.add(row[x], row[x - 1]) }
            return
        }
        guard let out = row.baseAddress, let above = previous.baseAddress else { return }
        out[0] = P.add(out[0], above[0])
        let modeBase = (y >> sizeBits) * blocksPerRow
        modes.withUnsafeBufferPointer { modeBuffer in
        guard let blockModes = modeBuffer.baseAddress else { return }
        var x = 1
        while x < width {
            // One mode per block: pick its kernel once, then run the block's pixels with it.
            let mode = blockModes[modeBase + (x >> sizeBits)] >> 8 & 0xF
            let end = min(width, (x >> sizeBits &+ 1) << sizeBits)
            /// Adds `predict(left, top, topLeft, topRight)` to pixels x ..< end.
            @inline(__always) func run(_ predict: (UInt32, UInt32, UInt32, UInt32) -> UInt32) {
                let innerEnd = min(end, width &- 1)
                while x < innerEnd {
                    out[x] = P.add(out[x], predict(out[x &- 1], above[x], above[x &- 1], above[x &+ 1]))
                    x &+= 1
                }
                if x < end {
                    // The rightmost pixel's top-right is the row's first pixel (section 4.1).
                    out[x] = P.add(out[x], predict(out[x &- 1], above[x], above[x &- 1], out[0]))
                    x &+= 1
                }
            }
            switch mode {
            case 1: run { left, _, _, _ in left }
            case 2: run { _, top, _, _ in top }
            case 3: run { _, _, _, topRight in topRight }
            case 4: run { _, _, topLeft, _ in topLeft }
            case 5: run { left, top, _, topRight in P.average2(P.average2(left, topRight), top) }
            case 6: run { left, _, topLeft, _ in P.average2(left, topLeft) }
            case 7: run { left, top, _, _ in P.average2(left, top) }
            case 8: run { _, top, topLeft, _ in P.average2(topLeft, top) }
            case 9: run { _, top, _, topRight in P.average2(top, topRight) }
            case 10: run { left, top, topLeft, topRight in P.average2(P.average2(left, topLeft), P.average2(top, topRight)) }
            case 11: run { left, top, topLeft, _ in P.select(left: left, top: top, topLeft: topLeft) }
            case 12: run { left, top, topLeft, _ in P.clampAddSubtractFull(left, top, topLeft) }
            case 13: run { left, top, topLeft, _ in P.clampAddSubtractHalf(P.average2(left, top), topLeft) }
            default: run { _, _, _, _ in black }
            }
        }
        }
    }
}
