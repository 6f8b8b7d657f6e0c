import Foundation

/// CIE L*a*b* relative to the D50 PCS white (ICC.1 Annex A).
enum CIELab {
    /// L*a*b* → XYZ (D50).
    static func toXYZ(_ lab: SIMD3<Double>) -> SIMD3<Double> {
        let fy = (lab.x + 16) / 116
        let fx = fy + lab.y / 500
        let fz = fy - lab.z / 200
        func inverse(_ t: Double) -> Double {
            t > 6.0 / 29.0 ? t * t * t : 108.0 / 841.0 * (t - 4.0 / 29.0)
        }
        return SIMD3(inverse(fx), inverse(fy), inverse(fz)) * ChromaticAdaptation.d50
    }

    /// Y (0 ... 1, relative to white) → L* (0 ... 100).
    static func lightness(fromY y: Double) -> Double {
        y > 216.0 / 24389.0 ? 116 * cbrt(y) - 16 : y * 24389.0 / 27.0
    }

    /// L* (0 ... 100) → Y relative to white.
    static func y(fromLightness l: Double) -> Double {
        toXYZ(SIMD3(l, 0, 0)).y
    }
}
