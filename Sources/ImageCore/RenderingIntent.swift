/// How colours a profile describes are mapped to sRGB (ICC.1 7.2.15), when
/// ``DecodingOptions/colorSpace`` asks for conversion: which A2B transform of a LUT-based profile
/// (CMYK press profiles, LUT RGB profiles) is used, as LittleCMS chooses it. Matrix/TRC profiles,
/// gray profiles and PNG `gAMA`/`cHRM`/`cICP` give the same result for every intent.
public enum RenderingIntent: Sendable, Hashable, CaseIterable {
    /// `A2B0`: the profile maker's pleasing rendering, with black point compensation as
    /// LittleCMS applies it into its v4 sRGB (the default, and what browsers use).
    case perceptual
    /// `A2B1` (falling back to `A2B0`): colours kept, relative to the media white; no black point
    /// compensation, so a press black stays as light as the press prints it.
    case relativeColorimetric
    /// `A2B2` (falling back to `A2B0`): vivid colours for business graphics, with black point
    /// compensation like perceptual.
    case saturation
}
