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
            // One mode per block: pick it once, then run the block's pixels.
            let mode = blockModes[modeBase + (x >> sizeBits)] >> 8 & 0xF
            let end = min(width, (x >> sizeBits &+ 1) << sizeBits)
            while x < end {
            let left = out[x &- 1]
            let top = above[x]
            let topLeft = above[x &- 1]
            let topRight = x &+ 1 < width ? above[x &+ 1] : out[0]
            let prediction: UInt32
            switch mode {
            case 1: prediction = left
            case 2: prediction = top
            case 3: prediction = topRight
            case 4: prediction = topLeft
            case 5: prediction = P.average2(P.average2(left, topRight), top)
            case 6: prediction = P.average2(left, topLeft)
            case 7: prediction = P.average2(left, top)
            case 8: prediction = P.average2(topLeft, top)
            case 9: prediction = P.average2(top, topRight)
            case 10: prediction = P.average2(P.average2(left, topLeft), P.average2(top, topRight))
            case 11: prediction = P.select(left: left, top: top, topLeft: topLeft)
            case 12: prediction = P.clampAddSubtractFull(left, top, topLeft)
            case 13: prediction = P.clampAddSubtractHalf(P.average2(left, top), topLeft)
            default: prediction = black
            }
            out[x] = P.add(out[x], prediction)
            x &+= 1
            }
        }
        }
    }
}
