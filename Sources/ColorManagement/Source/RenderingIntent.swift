/// Which A2B transform of a LUT-based profile is used (ICC.1 7.2.15). Matrix/TRC profiles and
/// the other sources give the same result for both.
public enum RenderingIntent: Sendable, Hashable, CaseIterable {
    /// `A2B0`: the profile maker's pleasing rendering (what browsers use).
    case perceptual
    /// `A2B1` (falling back to `A2B0`): colours kept, relative to the media white.
    case relativeColorimetric
}
