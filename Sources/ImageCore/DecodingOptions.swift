/// Output size relative to the stored image. JPEG scales in the DCT domain (cheap);
/// other formats ignore it.
public enum ScaleFactor: Int, Sendable, Hashable, CaseIterable {
    /// Full size.
    case full = 1
    /// 1/2 in each direction (rounded up, as libjpeg does).
    case half = 2
    /// 1/4 in each direction.
    case quarter = 4
    /// 1/8 in each direction.
    case eighth = 8

    /// The divisor: 1, 2, 4 or 8.
    public var denominator: Int { rawValue }

    /// `ceil(size / denominator)`, libjpeg's `jdiv_round_up`.
    public func scaled(_ size: Int) -> Int { (size + rawValue - 1) / rawValue }
}

/// How a decoder should decode.
public struct DecodingOptions: Sendable, Hashable {
    /// Bounds checked before allocating.
    public var limits: Limits
    /// Output scale (JPEG only).
    public var scale: ScaleFactor
    /// Whether CRCs and Adler-32 checks are verified (default true).
    public var verifyChecksums: Bool
    /// The pixel format wanted instead of the file's natural one; `nil` keeps the natural format.
    /// `.cmyk8` asks a CMYK/YCCK JPEG for its raw CMYK samples.
    public var preferredFormat: PixelFormat?
    /// Whether a JPEG's Exif thumbnail stands in for the rows not decoded yet (default true): a
    /// sequential camera photo then shows a blurred whole picture from its first few KB, and the
    /// decoded rows replace it top down. The final image is the same either way.
    public var usesEmbeddedThumbnail: Bool
    /// How many threads one decode may use (default 1: everything on the caller's thread). A
    /// larger value lets a decoder that can split its work use up to that many; pixels are the
    /// same for every value. Values below 1 count as 1.
    public var maximumThreads: Int
    /// The colour space of the output pixels (default `.original`: the file's own samples).
    public var colorSpace: OutputColorSpace
    /// How a LUT-based profile (a CMYK press profile, say) maps to sRGB when ``colorSpace`` is
    /// `.sRGB` (default `.perceptual`, as in LittleCMS and browsers). Matrix/TRC and gray
    /// profiles and PNG `gAMA`/`cHRM`/`cICP` give the same pixels for every intent.
    public var renderingIntent: RenderingIntent

    /// Makes options; every argument has a default.
    public init(limits: Limits = Limits(), scale: ScaleFactor = .full, verifyChecksums: Bool = true,
                preferredFormat: PixelFormat? = nil, usesEmbeddedThumbnail: Bool = true,
                maximumThreads: Int = 1, colorSpace: OutputColorSpace = .original,
                renderingIntent: RenderingIntent = .perceptual) {
        self.limits = limits
        self.scale = scale
        self.verifyChecksums = verifyChecksums
        self.preferredFormat = preferredFormat
        self.usesEmbeddedThumbnail = usesEmbeddedThumbnail
        self.maximumThreads = max(1, maximumThreads)
        self.colorSpace = colorSpace
        self.renderingIntent = renderingIntent
    }
}

/// The colour space a decoder writes its pixels in.
public enum OutputColorSpace: Sendable, Hashable {
    /// The file's own samples, untouched (what libjpeg and libpng return).
    case original
    /// Converted to sRGB using what the file says of its colours (ICC profile, PNG `sRGB`,
    /// `gAMA`/`cHRM`, `cICP`); a file that says nothing is taken to be sRGB already.
    case sRGB
}
