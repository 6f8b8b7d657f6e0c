/// What a file says about the colours of its samples, as far as conversion to sRGB needs it.
public enum ColorSource: Sendable, Hashable {
    /// Already sRGB (PNG `sRGB`, a file that says nothing): nothing to convert.
    case sRGB
    /// An embedded ICC profile (JPEG APP2, PNG `iCCP`, WebP `ICCP`).
    case iccProfile(ICCProfile)
    /// RGB samples with these primaries and white, linearised by `transfer` (encoded →
    /// linear): PNG `cHRM` + `gAMA`, `cICP`.
    case rgb(Chromaticities, transfer: ToneCurve)
    /// Gray samples linearised by `transfer` (PNG `gAMA` on a gray image).
    case gray(transfer: ToneCurve)

    /// The sRGB curve as a `para` type 4 curve (encoded → linear), as in LittleCMS's sRGB profile.
    public static let sRGBTransfer = ToneCurve.parametric(type: 4, g: 2.4, a: 1 / 1.055, b: 0.055 / 1.055,
                                                         c: 1 / 12.92, d: 0.04045, e: 0, f: 0)
    /// The BT.709 / BT.2020 / BT.601 transfer (inverse of the BT.709 OETF).
    public static let bt709Transfer = ToneCurve.parametric(type: 3, g: 1 / 0.45, a: 1 / 1.099, b: 0.099 / 1.099,
                                                          c: 1 / 4.5, d: 0.081, e: 0, f: 0)

    /// The source a PNG `gAMA` value (gamma × 100 000, e.g. 45455) and optional `cHRM`
    /// describe for an image with `isGray` samples, or nil when they are degenerate (gamma 0,
    /// impossible chromaticities) or say sRGB already.
    public static func png(gamma: UInt32?, chromaticities: Chromaticities?, isGray: Bool) -> ColorSource? {
        if gamma == 0 { return nil }
        // PNG 12.2: linear = sample^(1 / gamma); without gAMA the sRGB curve is assumed.
        let transfer = gamma.map { ToneCurve.gamma(100_000 / Double($0)) } ?? sRGBTransfer
        if isGray { return gamma == nil ? nil : .gray(transfer: transfer) }
        let primaries = chromaticities.flatMap { $0.rgbToXYZ == nil ? nil : $0 }
        if gamma == nil, primaries == nil { return nil }
        return .rgb(primaries ?? .sRGB, transfer: transfer)
    }
}
