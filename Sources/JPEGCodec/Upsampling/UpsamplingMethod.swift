/// How one component's samples are stretched to the output grid, chosen as libjpeg-turbo's
/// `jinit_upsampler` (jdsample.c) chooses with its default `do_fancy_upsampling`.
enum UpsamplingMethod: Equatable {
    /// Same size as the output: used as is.
    case fullSize
    /// 2:1 horizontally, triangle filter (needs a downsampled width above 2).
    case h2v1Fancy
    /// 2:1 vertically, triangle filter between the nearer and the farther row.
    case h1v2Fancy
    /// 2:1 both ways, triangle filter (needs a downsampled width above 2).
    case h2v2Fancy
    /// Any other integral ratio: each sample is replicated `horizontal` × `vertical` times.
    case box(horizontal: Int, vertical: Int)

    /// Picks the method for a component whose samples must grow by `horizontal` × `vertical`;
    /// `fancyAllowed` is false at 1/8 scale (libjpeg gives up context rows there).
    static func select(horizontal: Int, vertical: Int, downsampledWidth: Int, fancyAllowed: Bool) -> UpsamplingMethod {
        switch (horizontal, vertical) {
        case (1, 1):
            return .fullSize
        case (2, 1) where fancyAllowed && downsampledWidth > 2:
            return .h2v1Fancy
        case (1, 2) where fancyAllowed:
            return .h1v2Fancy
        case (2, 2) where fancyAllowed && downsampledWidth > 2:
            return .h2v2Fancy
        default:
            return .box(horizontal: horizontal, vertical: vertical)
        }
    }

    /// Whether output row y needs component rows other than the one it sits on (the row above or below).
    var usesVerticalNeighbour: Bool { self == .h1v2Fancy || self == .h2v2Fancy }
}
