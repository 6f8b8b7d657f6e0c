/// Sample reconstruction of lossless JPEG (T.81 H.1.2.1, libjpeg-turbo's jdlossls.c): each
/// sample is its difference plus a prediction from its left (Ra), upper (Rb) and upper-left (Rc)
/// neighbours, modulo 2^16.
enum LosslessPrediction {
    /// A first row (of the scan, or after a restart): the first sample predicted by `initial`
    /// (2^(P−Pt−1)), the others by Ra.
    static func undifferenceFirstRow(_ differences: UnsafePointer<Int32>, into output: UnsafeMutablePointer<UInt16>,
                                     width: Int, initial: Int32) {
        guard width > 0 else { return }
        var left = (differences[0] &+ initial) & 0xFFFF
        output[0] = UInt16(truncatingIfNeeded: left)
        var x = 1
        while x < width {
            left = (differences[x] &+ left) & 0xFFFF
            output[x] = UInt16(truncatingIfNeeded: left)
            x &+= 1
        }
    }

    /// Any later row: the first sample predicted by Rb, the others by `predictor` (1...7).
    static func undifference(_ differences: UnsafePointer<Int32>, above: UnsafePointer<UInt16>,
                             into output: UnsafeMutablePointer<UInt16>, width: Int, predictor: Int) {
        guard width > 0 else { return }
        switch predictor {
        case 1: run(differences, above, output, width) { a, _, _ in a }
        case 2: run(differences, above, output, width) { _, b, _ in b }
        case 3: run(differences, above, output, width) { _, _, c in c }
        case 4: run(differences, above, output, width) { a, b, c in a &+ b &- c }
        case 5: run(differences, above, output, width) { a, b, c in a &+ ((b &- c) &>> 1) }
        case 6: run(differences, above, output, width) { a, b, c in b &+ ((a &- c) &>> 1) }
        default: run(differences, above, output, width) { a, b, _ in (a &+ b) &>> 1 }
        }
    }

    /// One row with `predict(Ra, Rb, Rc)`; inlined per predictor so each loop is specialised.
    @inline(__always)
    private static func run(_ differences: UnsafePointer<Int32>, _ above: UnsafePointer<UInt16>,
                            _ output: UnsafeMutablePointer<UInt16>, _ width: Int,
                            _ predict: (Int32, Int32, Int32) -> Int32) {
        var upper = Int32(above[0])
        var left = (differences[0] &+ upper) & 0xFFFF
        output[0] = UInt16(truncatingIfNeeded: left)
        // A plain counted loop: a range's checked increments cost a quarter of the row.
        var x = 1
        while x < width {
            let upperLeft = upper
            upper = Int32(above[x])
            left = (differences[x] &+ predict(left, upper, upperLeft)) & 0xFFFF
            output[x] = UInt16(truncatingIfNeeded: left)
            x &+= 1
        }
    }
}
