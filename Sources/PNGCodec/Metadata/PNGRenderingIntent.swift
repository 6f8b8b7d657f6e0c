/// sRGB rendering intent (PNG 11.3.3.5, ICC rendering intents).
public enum PNGRenderingIntent: UInt8, Sendable, Hashable {
    /// 0: perceptual.
    case perceptual = 0
    /// 1: relative colorimetric.
    case relativeColorimetric = 1
    /// 2: saturation.
    case saturation = 2
    /// 3: absolute colorimetric.
    case absoluteColorimetric = 3
}
