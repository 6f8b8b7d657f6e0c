/// Undoes the VP8L transforms one row at a time (RFC 9649 section 4), in place in a row buffer.
///
/// The predictor needs the previous row *after* its own inverse; each predictor keeps that row
/// in ``previousRows``. All other transforms are per pixel. Colour indexing widens the row, so
/// the row buffer is as wide as the image.
struct VP8LInverseTransforms {
    /// In bitstream order; undone last to first.
    let transforms: [VP8LTransform]
    /// For each transform, its previous output row (predictors only; empty otherwise).
    private var previousRows: [[UInt32]]
    /// The row width each transform works on: the image width, narrowed by every colour-indexing
    /// transform read before it (they pack pixels).
    private let widths: [Int]

    init(transforms: [VP8LTransform], imageWidth: Int) {
        self.transforms = transforms
        var width = imageWidth
        var widths: [Int] = []
        for transform in transforms {
            widths.append(width)
            if case .colorIndexing(let widthBits, _, _) = transform { width = subsampledSize(width, widthBits) }
        }
        self.widths = widths
        previousRows = transforms.map { transform in
            if case .predictor(_, _, _, let width) = transform { return [UInt32](repeating: 0, count: width) }
            return []
        }
    }

    /// Turns coded row `y` (in `row[0 ..< codedWidth]`) into final ARGB pixels in `row`.
    mutating func apply(row: UnsafeMutableBufferPointer<UInt32>, y: Int) {
        for position in transforms.indices.reversed() {
            switch transforms[position] {
            case .subtractGreen:
                // Section 4.3: red += green, blue += green.
                for x in 0..<widths[position] {
                    let pixel = row[x]
                    let green = pixel >> 8 & 0xFF
                    row[x] = VP8LPixelArithmetic.add(pixel, green << 16 | green)
                }
            case .color(let sizeBits, let blocksPerRow, let elements, let width):
                Self.undoColorTransform(row: row, y: y, width: width, sizeBits: sizeBits,
                                        blocksPerRow: blocksPerRow, elements: elements)
            case .predictor(let sizeBits, let blocksPerRow, let modes, let width):
                previousRows[position].withUnsafeMutableBufferPointer { previous in
                    VP8LPredictor.undo(row: row, previous: previous, y: y, width: width, sizeBits: sizeBits,
                                       blocksPerRow: blocksPerRow, modes: modes)
                    for x in 0..<width { previous[x] = row[x] }
                }
            case .colorIndexing(let widthBits, let palette, let width):
                Self.undoColorIndexing(row: row, width: width, widthBits: widthBits, palette: palette)
            }
        }
    }

    /// Section 4.2: red += δ(g2r, green); blue += δ(g2b, green) + δ(r2b, new red), where
    /// δ(t, c) = (t * c) >> 5 on signed bytes. Four pixels at a time in 16-bit lanes
    /// (``VP8LColorTransformLanes``), the rest of each block by ``undoColorTransformScalar``.
    static func undoColorTransform(row: UnsafeMutableBufferPointer<UInt32>, y: Int, width: Int, sizeBits: Int,
                                   blocksPerRow: Int, elements: [UInt32]) {
        let rowBase = (y >> sizeBits) * blocksPerRow
        guard let out = row.baseAddress else { return }
        elements.withUnsafeBufferPointer { blocks in
            guard let block = blocks.baseAddress else { return }
            // One block's multipliers serve 2^sizeBits pixels.
            var x = 0
            while x < width {
                let element = block[rowBase + (x >> sizeBits)]
                let end = min(width, (x >> sizeBits &+ 1) << sizeBits)
                let lanes = VP8LColorTransformLanes(element: element)
                while x &+ 4 <= end {
                    lanes.undo(out + x)
                    x &+= 4
                }
                undoColorTransformScalar(out, from: x, to: end, element: element)
                x = end
            }
        }
    }

    /// The colour transform of pixels `start ..< end` with one block's multipliers `element`,
    /// channel by channel (the careful twin of ``VP8LColorTransformLanes``).
    static func undoColorTransformScalar(_ out: UnsafeMutablePointer<UInt32>, from start: Int, to end: Int, element: UInt32) {
        // Products of signed bytes fit easily.
        let greenToRed = Int32(Int8(truncatingIfNeeded: element))
        let greenToBlue = Int32(Int8(truncatingIfNeeded: element >> 8))
        let redToBlue = Int32(Int8(truncatingIfNeeded: element >> 16))
        var x = start
        while x < end {
            let pixel = out[x]
            let green = Int32(Int8(truncatingIfNeeded: pixel >> 8))
            let red = (Int32(pixel >> 16 & 0xFF) &+ (greenToRed &* green) >> 5) & 0xFF
            let newRed = Int32(Int8(truncatingIfNeeded: red))
            let blue = (Int32(pixel & 0xFF) &+ (greenToBlue &* green) >> 5 &+ (redToBlue &* newRed) >> 5) & 0xFF
            out[x] = pixel & 0xFF00_FF00 | UInt32(red) << 16 | UInt32(blue)
            x &+= 1
        }
    }

    /// Section 4.4: expands packed palette indices (in green) to colours, right to left so the
    /// packed pixels are read before they are overwritten.
    static func undoColorIndexing(row: UnsafeMutableBufferPointer<UInt32>, width: Int, widthBits: Int, palette: [UInt32]) {
        let bitsPerIndex = 8 >> widthBits
        let indexMask = (1 << bitsPerIndex) - 1
        let perPixelMask = (1 << widthBits) - 1
        var x = width - 1
        while x >= 0 {
            let packed = Int(row[x >> widthBits] >> 8 & 0xFF)
            let index = packed >> ((x & perPixelMask) * bitsPerIndex) & indexMask
            row[x] = palette[index]
            x -= 1
        }
    }
}
