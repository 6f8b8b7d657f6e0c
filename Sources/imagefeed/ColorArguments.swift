import ImageCore

/// The colour options `imagefeed decode` and `imagefeed fetch` share: `--colorspace` and `--intent`.
enum ColorArguments {
    /// `--colorspace srgb|original`.
    static func colorSpace(_ text: String) throws -> OutputColorSpace {
        switch text {
        case "srgb": return .sRGB
        case "original": return .original
        default: throw ArgumentError(message: "--colorspace must be srgb or original, not '\(text)'")
        }
    }

    /// `--intent perceptual|relative|saturation` (``DecodingOptions/renderingIntent``).
    static func intent(_ text: String) throws -> RenderingIntent {
        switch text {
        case "perceptual": return .perceptual
        case "relative": return .relativeColorimetric
        case "saturation": return .saturation
        default: throw ArgumentError(message: "--intent must be perceptual, relative or saturation, not '\(text)'")
        }
    }
}
