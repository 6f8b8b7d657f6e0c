import ImageCore

/// The last step of a decoder's output when ``DecodingOptions/colorSpace`` is `.sRGB`: converts
/// each image handed out (final and previews) with the file's colour information, building the
/// converter once per colour source and pixel format.
///
/// A profile that does not parse, or does not fit the pixels, is reported once in
/// ``problem`` and ignored: the image keeps its original samples.
public struct SRGBOutputStage: Sendable {
    private struct Built: Sendable {
        var format: PixelFormat
        var profile: [UInt8]?
        var fallback: ColorSource?
        var converter: ColorConverter?
    }

    /// Whether conversion was asked for.
    public let isEnabled: Bool
    /// The intent LUT-based profiles are converted with.
    public let intent: RenderingIntent
    private var built: Built?
    /// Why the file's colour information was not used (nil while nothing went wrong).
    public private(set) var problem: ICCProfileError?

    /// A stage for `colorSpace` (`.original` makes every call a no-op) and `intent`.
    public init(colorSpace: OutputColorSpace, intent: RenderingIntent = .perceptual) {
        isEnabled = colorSpace == .sRGB
        self.intent = intent
    }

    /// The stage ``DecodingOptions/colorSpace`` and ``DecodingOptions/renderingIntent`` ask for.
    public init(options: DecodingOptions) {
        self.init(colorSpace: options.colorSpace, intent: options.renderingIntent)
    }

    /// `image` in sRGB.
    ///
    /// - Parameters:
    ///   - iccProfile: the embedded profile, which wins when present and usable.
    ///   - fallback: what else the file says (PNG `cICP`/`sRGB`/`gAMA`/`cHRM`), used when there is
    ///     no profile; nil means sRGB (nothing to do).
    ///   - cmykIsInverted: `cmyk8` samples are Adobe-inverted (255 = no ink).
    public mutating func convert(_ image: Image, iccProfile: [UInt8]?, fallback: ColorSource? = nil,
                                 cmykIsInverted: Bool = false) -> Image {
        guard isEnabled else { return image }
        if let built, built.format == image.format, built.profile == iccProfile, built.fallback == fallback {
            return built.converter?.convert(image) ?? image
        }
        var converter: ColorConverter?
        do {
            if let iccProfile {
                // Cached across decoders: the next file with this profile skips the build.
                converter = try ConverterCache.shared.converter(profile: iccProfile, format: image.format,
                                                                intent: intent, cmykIsInverted: cmykIsInverted)
            } else if let fallback {
                converter = try ColorConverter(source: fallback, format: image.format)
            }
        } catch let error as ICCProfileError {
            if problem == nil { problem = error }
            // A broken profile: what else the file says still counts (PNG gAMA/cHRM).
            if let fallback { converter = try? ColorConverter(source: fallback, format: image.format) }
        } catch {
            converter = nil
        }
        built = Built(format: image.format, profile: iccProfile, fallback: fallback, converter: converter)
        return converter?.convert(image) ?? image
    }

    /// Whether `iccProfile` declares CMYK data (header bytes 16–19), so that a CMYK JPEG should
    /// keep its CMYK samples for the profile instead of libjpeg's naive RGB.
    public static func isCMYKProfile(_ iccProfile: [UInt8]?) -> Bool {
        guard let bytes = iccProfile, bytes.count >= 20 else { return false }
        return Array(bytes[16..<20]) == Array("CMYK".utf8)
    }

    /// The problem as a decoder warning (profile offsets are inside the profile, so the file
    /// offset is that of the chunk or segment that carried it, when the decoder knows it).
    public func warning(at offset: Int?) -> ImageDecodingError? {
        problem.map { ImageDecodingError($0.kind == .unsupported ? .unsupported : .invalidData, at: offset,
                                         "colour information ignored, pixels left unconverted: \($0)") }
    }
}
