/// IHDR colour type (PNG 11.2.2, Table 11.1) and the bit depths each allows.
enum PNGColorType: UInt8 {
    /// 0: gray; depths 1, 2, 4, 8, 16.
    case gray = 0
    /// 2: truecolour RGB; depths 8, 16.
    case rgb = 2
    /// 3: palette indices; depths 1, 2, 4, 8.
    case palette = 3
    /// 4: gray + alpha; depths 8, 16.
    case grayAlpha = 4
    /// 6: RGB + alpha; depths 8, 16.
    case rgba = 6

    /// Samples per pixel as stored.
    var channels: Int {
        switch self {
        case .gray, .palette: return 1
        case .grayAlpha: return 2
        case .rgb: return 3
        case .rgba: return 4
        }
    }

    /// Whether `depth` is allowed for this colour type (PNG Table 11.1).
    func allows(bitDepth depth: Int) -> Bool {
        switch self {
        case .gray: return [1, 2, 4, 8, 16].contains(depth)
        case .palette: return [1, 2, 4, 8].contains(depth)
        case .rgb, .grayAlpha, .rgba: return depth == 8 || depth == 16
        }
    }

    /// A readable name for messages.
    var name: String {
        switch self {
        case .gray: return "gray"
        case .rgb: return "RGB"
        case .palette: return "palette"
        case .grayAlpha: return "gray+alpha"
        case .rgba: return "RGBA"
        }
    }
}
