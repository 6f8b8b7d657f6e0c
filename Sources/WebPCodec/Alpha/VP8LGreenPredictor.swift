/// The inverse predictor transform (RFC 9649 section 4.1) on the green channel alone, for
/// streams ``VP8LGreenPlan`` accepts (their red and blue stay 0 and alpha 255, so every mode's
/// green result needs only green). Same borders as ``VP8LPredictor``: the top-left pixel
/// predicts 0 (black's green), the rest of the top row L, the left column T, the rightmost
/// pixel's TR is the row's first pixel; modes 14 and 15 predict 0 like mode 0.
enum VP8LGreenPredictor {
    /// Undoes row `y` in place (`width` bytes); `previous` is row `y - 1` after its own inverse.
    static func undo(row out: UnsafeMutablePointer<UInt8>, previous above: UnsafePointer<UInt8>, y: Int, width: Int,
                     sizeBits: Int, blocksPerRow: Int, modes: UnsafeBufferPointer<UInt32>) {
        guard width > 0 else { return }
        if y == 0 {
            var left: UInt8 = 0
            for x in 0..<width { left = left &+ out[x]; out[x] = left }
            return
        }
        out[0] = out[0] &+ above[0]
        let modeBase = (y >> sizeBits) * blocksPerRow
        var x = 1
        while x < width {
            let blockIndex = modeBase &+ (x >> sizeBits)
            let mode = blockIndex < modes.count ? modes[blockIndex] >> 8 & 0xF : 0
            let end = min(width, (x >> sizeBits &+ 1) << sizeBits)
            /// Adds `predict(left, top, topLeft, topRight)` to pixels x ..< end.
            @inline(__always) func run(_ predict: (Int, Int, Int, Int) -> Int) {
                let innerEnd = min(end, width &- 1)
                while x < innerEnd {
                    let predicted = predict(Int(out[x &- 1]), Int(above[x]), Int(above[x &- 1]), Int(above[x &+ 1]))
                    out[x] = out[x] &+ UInt8(truncatingIfNeeded: predicted)
                    x &+= 1
                }
                if x < end {
                    let predicted = predict(Int(out[x &- 1]), Int(above[x]), Int(above[x &- 1]), Int(out[0]))
                    out[x] = out[x] &+ UInt8(truncatingIfNeeded: predicted)
                    x &+= 1
                }
            }
            switch mode {
            case 1: run { left, _, _, _ in left }
            case 2: run { _, top, _, _ in top }
            case 3: run { _, _, _, topRight in topRight }
            case 4: run { _, _, topLeft, _ in topLeft }
            case 5: run { left, top, _, topRight in ((left &+ topRight) &>> 1 &+ top) &>> 1 }
            case 6: run { left, _, topLeft, _ in (left &+ topLeft) &>> 1 }
            case 7: run { left, top, _, _ in (left &+ top) &>> 1 }
            case 8: run { _, top, topLeft, _ in (topLeft &+ top) &>> 1 }
            case 9: run { _, top, _, topRight in (top &+ topRight) &>> 1 }
            case 10: run { left, top, topLeft, topRight in ((left &+ topLeft) &>> 1 &+ (top &+ topRight) &>> 1) &>> 1 }
            case 11: run { left, top, topLeft, _ in select(left: left, top: top, topLeft: topLeft) }
            case 12: run { left, top, topLeft, _ in clamp(left &+ top &- topLeft) }
            case 13: run { left, top, topLeft, _ in clampAddSubtractHalf((left &+ top) &>> 1, topLeft) }
            default: run { _, _, _, _ in 0 }
            }
        }
    }

    /// `Select` on one channel: L when |T − TL| < |L − TL|, else T.
    @inline(__always)
    static func select(left: Int, top: Int, topLeft: Int) -> Int {
        abs(top &- topLeft) < abs(left &- topLeft) ? left : top
    }

    @inline(__always)
    static func clamp(_ value: Int) -> Int { min(max(value, 0), 255) }

    /// `ClampAddSubtractHalf` on one channel: `clamp(a + (a - b) / 2)`, C division.
    @inline(__always)
    static func clampAddSubtractHalf(_ a: Int, _ b: Int) -> Int { clamp(a &+ (a &- b) / 2) }
}
