/// A data or connection colour space of a profile header (ICC.1 7.2.6, 7.2.7).
public enum ICCColorSpace: Sendable, Hashable {
    /// `XYZ ` (also a PCS).
    case xyz
    /// `Lab ` (also a PCS).
    case lab
    /// `GRAY`.
    case gray
    /// `RGB `.
    case rgb
    /// `CMYK`.
    case cmyk
    /// Any other signature (YCbCr, HSV, n-colour ...), kept as stored.
    case other(ICCSignature)

    init(_ signature: ICCSignature) {
        switch signature {
        case ICCSignature("XYZ "): self = .xyz
        case ICCSignature("Lab "): self = .lab
        case ICCSignature("GRAY"): self = .gray
        case ICCSignature("RGB "): self = .rgb
        case ICCSignature("CMYK"): self = .cmyk
        default: self = .other(signature)
        }
    }

    /// Channels of device data in this space (nil for spaces this library does not convert).
    public var channelCount: Int? {
        switch self {
        case .gray: return 1
        case .rgb, .xyz, .lab: return 3
        case .cmyk: return 4
        case .other: return nil
        }
    }
}
