/// One transform of the main VP8L image (RFC 9649 section 4), in the order read; decoding
/// undoes them in reverse order.
enum VP8LTransform {
    /// Section 4.1: each `1 << sizeBits` square block has a predictor mode (green of `modes`).
    case predictor(sizeBits: Int, blocksPerRow: Int, modes: [UInt32], width: Int)
    /// Section 4.2: each block has three multipliers (`ColorTransformElement` in the pixel).
    case color(sizeBits: Int, blocksPerRow: Int, elements: [UInt32], width: Int)
    /// Section 4.3: green was subtracted from red and blue.
    case subtractGreen
    /// Section 4.4: pixels are palette indices, `1 << widthBits` of them packed per coded pixel.
    /// `palette` has `1 << (8 >> widthBits)` entries (unused ones are transparent black, as
    /// libwebp does for out-of-range indices); `width` is the unpacked width.
    case colorIndexing(widthBits: Int, palette: [UInt32], width: Int)

    /// The transform's type number in the bitstream (2 bits).
    var typeNumber: Int {
        switch self {
        case .predictor: return 0
        case .color: return 1
        case .subtractGreen: return 2
        case .colorIndexing: return 3
        }
    }
}
