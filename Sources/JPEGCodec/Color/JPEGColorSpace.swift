/// The colour space of the stored components, decided the way libjpeg's `default_decompress_parms`
/// (jdapimin.c) decides it when the first scan starts.
enum JPEGColorSpace: Equatable {
    case gray, yCbCr, rgb, cmyk, ycck

    /// Decides from the component count, the JFIF and Adobe APP segments seen, and the component ids.
    /// Without either marker, a lossless image of three components is taken as RGB whatever
    /// its ids (libjpeg-turbo 3).
    static func infer(componentIDs: [UInt8], sawJFIF: Bool, adobeTransform: UInt8?, lossless: Bool = false) -> JPEGColorSpace {
        switch componentIDs.count {
        case 1:
            return .gray
        case 3:
            if sawJFIF { return .yCbCr }
            if let transform = adobeTransform { return transform == 0 ? .rgb : .yCbCr }
            // No marker: 'R','G','B' ids mean RGB, anything else is taken as YCbCr.
            return componentIDs == [0x52, 0x47, 0x42] || lossless ? .rgb : .yCbCr
        default:
            if let transform = adobeTransform { return transform == 0 ? .cmyk : .ycck }
            return .cmyk
        }
    }

    /// The conversion to `cmyk8` when `wantCMYK`, otherwise to the natural gray8 / rgb8.
    func conversion(wantCMYK: Bool) -> ColorConversion {
        switch self {
        case .gray: return .gray
        case .yCbCr: return .yCbCrToRGB
        case .rgb: return .rgb
        case .cmyk: return wantCMYK ? .cmyk : .cmykToRGB
        case .ycck: return wantCMYK ? .ycckToCMYK : .ycckToRGB
        }
    }
}
