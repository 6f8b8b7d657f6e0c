/// The layout of one pixel in ``Image/pixels``.
///
/// Samples are interleaved in the order of the case name (`rgba8`: R, G, B, A).
/// 16-bit samples are stored big-endian, as in PNG, so a 16-bit image can be
/// written to a PNG or PAM file without reordering.
public enum PixelFormat: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// One 8-bit gray sample.
    case gray8
    /// 8-bit gray then 8-bit alpha.
    case grayAlpha8
    /// 8-bit red, green, blue.
    case rgb8
    /// 8-bit red, green, blue, alpha (straight, not premultiplied).
    case rgba8
    /// One 16-bit big-endian gray sample.
    case gray16
    /// 16-bit big-endian gray then alpha.
    case grayAlpha16
    /// 16-bit big-endian red, green, blue.
    case rgb16
    /// 16-bit big-endian red, green, blue, alpha.
    case rgba16
    /// 8-bit cyan, magenta, yellow, black as stored in the JPEG (Adobe files store them inverted).
    case cmyk8

    /// Samples per pixel.
    public var channelCount: Int {
        switch self {
        case .gray8, .gray16: return 1
        case .grayAlpha8, .grayAlpha16: return 2
        case .rgb8, .rgb16: return 3
        case .rgba8, .rgba16, .cmyk8: return 4
        }
    }

    /// Bytes per sample: 1 or 2.
    public var bytesPerSample: Int {
        switch self {
        case .gray16, .grayAlpha16, .rgb16, .rgba16: return 2
        default: return 1
        }
    }

    /// Bytes per pixel (`channelCount * bytesPerSample`).
    public var bytesPerPixel: Int { channelCount * bytesPerSample }

    /// Whether the last channel is alpha.
    public var hasAlpha: Bool {
        switch self {
        case .grayAlpha8, .rgba8, .grayAlpha16, .rgba16: return true
        default: return false
        }
    }

    /// Whether the colour channels are a single gray channel.
    public var isGray: Bool {
        switch self {
        case .gray8, .grayAlpha8, .gray16, .grayAlpha16: return true
        default: return false
        }
    }

    /// The name of the case, e.g. `rgba8`.
    public var description: String { rawValue }
}
