/// A 3×3 matrix of doubles, row-major, for colour-space arithmetic (XYZ, RGB).
public struct Matrix3: Sendable, Hashable {
    /// The rows.
    public var rows: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>)

    /// Makes a matrix from its three rows.
    public init(_ r0: SIMD3<Double>, _ r1: SIMD3<Double>, _ r2: SIMD3<Double>) { rows = (r0, r1, r2) }

    /// Makes a matrix whose columns are `c0`, `c1`, `c2`.
    public init(columns c0: SIMD3<Double>, _ c1: SIMD3<Double>, _ c2: SIMD3<Double>) {
        rows = (SIMD3(c0.x, c1.x, c2.x), SIMD3(c0.y, c1.y, c2.y), SIMD3(c0.z, c1.z, c2.z))
    }

    /// The identity.
    public static let identity = Matrix3(SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1))

    /// A diagonal matrix.
    public static func diagonal(_ d: SIMD3<Double>) -> Matrix3 {
        Matrix3(SIMD3(d.x, 0, 0), SIMD3(0, d.y, 0), SIMD3(0, 0, d.z))
    }

    /// Row `i` (0 ... 2).
    public func row(_ i: Int) -> SIMD3<Double> { i == 0 ? rows.0 : (i == 1 ? rows.1 : rows.2) }

    /// `self × v`.
    public static func * (m: Matrix3, v: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3((m.rows.0 * v).sum(), (m.rows.1 * v).sum(), (m.rows.2 * v).sum())
    }

    /// `a × b`.
    public static func * (a: Matrix3, b: Matrix3) -> Matrix3 {
        let t = b.transposed
        func row(_ r: SIMD3<Double>) -> SIMD3<Double> { SIMD3((r * t.rows.0).sum(), (r * t.rows.1).sum(), (r * t.rows.2).sum()) }
        return Matrix3(row(a.rows.0), row(a.rows.1), row(a.rows.2))
    }

    /// The transpose.
    public var transposed: Matrix3 { Matrix3(columns: rows.0, rows.1, rows.2) }

    /// The determinant.
    public var determinant: Double {
        let (a, b, c) = rows
        return a.x * (b.y * c.z - b.z * c.y) - a.y * (b.x * c.z - b.z * c.x) + a.z * (b.x * c.y - b.y * c.x)
    }

    /// The inverse, or nil when the matrix is singular (or nearly, or not finite).
    public var inverse: Matrix3? {
        let det = determinant
        guard det.isFinite, abs(det) > 1e-12 else { return nil }
        let (a, b, c) = rows
        let cofactors = Matrix3(
            SIMD3(b.y * c.z - b.z * c.y, a.z * c.y - a.y * c.z, a.y * b.z - a.z * b.y),
            SIMD3(b.z * c.x - b.x * c.z, a.x * c.z - a.z * c.x, a.z * b.x - a.x * b.z),
            SIMD3(b.x * c.y - b.y * c.x, a.y * c.x - a.x * c.y, a.x * b.y - a.y * b.x))
        return Matrix3(cofactors.rows.0 / det, cofactors.rows.1 / det, cofactors.rows.2 / det)
    }
}

extension Matrix3: Equatable {
    public static func == (a: Matrix3, b: Matrix3) -> Bool { a.rows.0 == b.rows.0 && a.rows.1 == b.rows.1 && a.rows.2 == b.rows.2 }
}

extension Matrix3 {
    public func hash(into hasher: inout Hasher) {
        for r in [rows.0, rows.1, rows.2] { hasher.combine(r) }
    }
}
