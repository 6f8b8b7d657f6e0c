/// When a VP8L stream's green output can be computed on bytes, and how: libwebp's "8-bit"
/// alpha path (`Is8bOptimizable`), widened to the streams libwebp's own alpha encoder writes.
///
/// An `ALPH` stream carries alpha in green. The green result of every transform depends only on
/// green, except the predictor's `Select` (mode 11), which sums distances over all four
/// channels. So the transforms can run on a plane of green bytes when:
/// - a predictor, if any, is the last transform read (the first undone, so it sees the decoded
///   residuals), and
/// - either no block uses `Select`, or every group's red, blue and alpha codes have the single
///   symbol 0: then every pixel's red and blue stay 0 and alpha 255 (mode 0's black; a colour
///   cache slot never written holds 0, a zero residual too), and `Select`'s other channels add
///   nothing.
///
/// Subtract-green and the colour transform never change green; colour indexing maps the green
/// index to the palette entry's green.
struct VP8LGreenPlan {
    /// The predictor transform (undone first), if the stream has one.
    var predictor: (sizeBits: Int, blocksPerRow: Int, modes: [UInt32], width: Int)?
    /// Colour indexing (undone last), its palette reduced to the entries' green bytes.
    var palette: (widthBits: Int, greens: [UInt8], width: Int)?

    /// The plan for `header`, or nil when its green channel depends on the other channels.
    init?(_ header: VP8LStreamHeader) {
        for (position, transform) in header.transforms.enumerated() {
            switch transform {
            case .predictor(let sizeBits, let blocksPerRow, let modes, let width):
                guard position == header.transforms.count - 1 else { return nil }
                let usesSelect = modes.contains { $0 >> 8 & 0xF == 11 }
                guard !usesSelect || Self.residualsAreZero(header.codes) else { return nil }
                predictor = (sizeBits, blocksPerRow, modes, width)
            case .colorIndexing(let widthBits, let entries, let width):
                palette = (widthBits, entries.map { UInt8(truncatingIfNeeded: $0 >> 8) }, width)
            case .subtractGreen, .color:
                continue
            }
        }
    }

    /// Whether every group's red, blue and alpha codes are the single symbol 0.
    static func residualsAreZero(_ codes: VP8LEntropyCodes) -> Bool {
        guard codes.codes.count % 5 == 0 else { return false }
        return stride(from: 0, to: codes.codes.count, by: 5).allSatisfy { group in
            (1...3).allSatisfy { codes.codes[group + $0].singleSymbol == 0 }
        }
    }
}
