import Foundation

/// The destination of every conversion: sRGB (IEC 61966-2-1), built as LittleCMS builds its
/// sRGB profile (BT.709 primaries, D65 white adapted to the D50 PCS with Bradford).
public enum SRGB {
    /// Linear sRGB → PCS XYZ (D50).
    public static let toPCS: Matrix3 = Chromaticities.sRGB.rgbToPCS ?? .identity
    /// PCS XYZ (D50) → linear sRGB.
    public static let fromPCS: Matrix3 = toPCS.inverse ?? .identity

    /// The sRGB transfer function: linear 0 ... 1 → encoded 0 ... 1 (values outside clamp).
    @inline(__always)
    public static func encode(_ linear: Double) -> Double {
        guard linear > 0 else { return 0 }
        if linear >= 1 { return 1 }
        return linear <= 0.0031308 ? 12.92 * linear : 1.055 * pow(linear, 1 / 2.4) - 0.055
    }

    /// The inverse: encoded 0 ... 1 → linear 0 ... 1.
    @inline(__always)
    public static func decode(_ encoded: Double) -> Double {
        guard encoded > 0 else { return 0 }
        if encoded >= 1 { return 1 }
        return encoded <= 0.04045 ? encoded / 12.92 : pow((encoded + 0.055) / 1.055, 2.4)
    }
}
