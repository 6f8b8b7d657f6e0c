/// CIE 1931 xy chromaticities of a white point and three primaries: what PNG `cHRM` and the
/// `cICP` colour primaries code points describe.
public struct Chromaticities: Sendable, Hashable {
    /// White point x, y.
    public var white: SIMD2<Double>
    /// Red primary x, y.
    public var red: SIMD2<Double>
    /// Green primary x, y.
    public var green: SIMD2<Double>
    /// Blue primary x, y.
    public var blue: SIMD2<Double>

    /// Makes chromaticities.
    public init(white: SIMD2<Double>, red: SIMD2<Double>, green: SIMD2<Double>, blue: SIMD2<Double>) {
        self.white = white
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// ITU-R BT.709 / sRGB primaries, D65 white.
    public static let sRGB = Chromaticities(white: SIMD2(0.3127, 0.3290), red: SIMD2(0.64, 0.33),
                                            green: SIMD2(0.30, 0.60), blue: SIMD2(0.15, 0.06))
    /// Display P3 (DCI-P3 primaries, D65 white).
    public static let displayP3 = Chromaticities(white: SIMD2(0.3127, 0.3290), red: SIMD2(0.680, 0.320),
                                                 green: SIMD2(0.265, 0.690), blue: SIMD2(0.150, 0.060))
    /// ITU-R BT.2020 / BT.2100 primaries, D65 white.
    public static let bt2020 = Chromaticities(white: SIMD2(0.3127, 0.3290), red: SIMD2(0.708, 0.292),
                                              green: SIMD2(0.170, 0.797), blue: SIMD2(0.131, 0.046))

    /// The matrix from linear RGB to XYZ relative to this white (Y of white = 1), or nil when
    /// the chromaticities are degenerate (a y of 0, collinear primaries).
    public var rgbToXYZ: Matrix3? {
        func xyz(_ p: SIMD2<Double>) -> SIMD3<Double>? {
            guard p.y > 1e-9, p.x >= 0, p.y <= 1, p.x + p.y <= 1 + 1e-9 else { return nil }
            return SIMD3(p.x / p.y, 1, (1 - p.x - p.y) / p.y)
        }
        guard let r = xyz(red), let g = xyz(green), let b = xyz(blue), let w = xyz(white) else { return nil }
        let primaries = Matrix3(columns: r, g, b)
        guard let inverse = primaries.inverse else { return nil }
        let scale = inverse * w
        guard scale.x > 0, scale.y > 0, scale.z > 0 else { return nil }
        return Matrix3(columns: r * scale.x, g * scale.y, b * scale.z)
    }

    /// The matrix from linear RGB to the ICC PCS (XYZ, D50), adapted with Bradford as ICC.1
    /// Annex E and LittleCMS do.
    public var rgbToPCS: Matrix3? {
        guard let toXYZ = rgbToXYZ else { return nil }
        let whiteXYZ = toXYZ * SIMD3(1, 1, 1)
        return ChromaticAdaptation.bradford(from: whiteXYZ, to: ChromaticAdaptation.d50) * toXYZ
    }
}
