/// Chromatic adaptation between white points (ICC.1 Annex E: linearised Bradford).
public enum ChromaticAdaptation {
    /// The PCS illuminant D50 as ICC.1 7.2.16 stores it (X 0.9642, Y 1.0, Z 0.8249).
    public static let d50 = SIMD3<Double>(0.9642, 1.0, 0.8249)

    /// The Bradford cone response matrix.
    static let bradfordCone = Matrix3(SIMD3(0.8951, 0.2664, -0.1614),
                                      SIMD3(-0.7502, 1.7135, 0.0367),
                                      SIMD3(0.0389, -0.0685, 1.0296))

    /// The matrix taking XYZ seen under `source` white to XYZ under `destination` white.
    /// Identity when either white is degenerate.
    public static func bradford(from source: SIMD3<Double>, to destination: SIMD3<Double>) -> Matrix3 {
        guard let inverseCone = bradfordCone.inverse else { return .identity }
        let s = bradfordCone * source, d = bradfordCone * destination
        guard s.x > 0, s.y > 0, s.z > 0, d.x.isFinite, d.y.isFinite, d.z.isFinite else { return .identity }
        return inverseCone * .diagonal(d / s) * bradfordCone
    }
}
