import Foundation

/// A one-dimensional transfer curve (ICC.1 10.6 `curv`, 10.18 `para`), mapping 0 ... 1 to 0 ... 1.
public enum ToneCurve: Sendable, Hashable {
    /// `curv` with no entries: y = x.
    case identity
    /// `curv` with one entry, or `para` type 0: y = x^gamma.
    case gamma(Double)
    /// `curv` with two or more entries: samples at equal steps of x, linearly interpolated.
    case table([Double])
    /// `para` types 1–4 (ICC.1 table 68) with their parameters g, a, b, c, d, e, f (missing
    /// ones are those the type implies, e.g. type 1 has c = 0, d = −b/a).
    case parametric(type: Int, g: Double, a: Double, b: Double, c: Double, d: Double, e: Double, f: Double)

    /// The curve at `x` (clamped to 0 ... 1 first; the result is clamped too, as the PCS is).
    public func callAsFunction(_ input: Double) -> Double {
        let x = input.isNaN ? 0 : min(max(input, 0), 1)
        let y: Double
        switch self {
        case .identity:
            y = x
        case .gamma(let g):
            y = pow(x, g)
        case .table(let samples):
            let position = x * Double(samples.count - 1)
            let index = min(Int(position), samples.count - 2)
            let t = position - Double(index)
            y = samples[index] + (samples[index + 1] - samples[index]) * t
        case let .parametric(type, g, a, b, c, d, e, f):
            y = Self.evaluateParametric(type: type, x, g: g, a: a, b: b, c: c, d: d, e: e, f: f)
        }
        return y.isNaN ? 0 : min(max(y, 0), 1)
    }

    private static func evaluateParametric(type: Int, _ x: Double, g: Double, a: Double, b: Double,
                                           c: Double, d: Double, e: Double, f: Double) -> Double {
        // A negative base gives NaN in pow; the spec's domains keep it ≥ 0 where the power applies.
        func power(_ base: Double) -> Double { base <= 0 ? 0 : pow(base, g) }
        switch type {
        case 1:
            return x >= d ? power(a * x + b) : 0
        case 2:
            return x >= d ? power(a * x + b) + c : c
        case 3:
            return x >= d ? power(a * x + b) : c * x
        case 4:
            return x >= d ? power(a * x + b) + e : c * x + f
        default:
            return power(x)
        }
    }

    /// Whether the curve is y = x (within 16-bit precision at a few points).
    public var isIdentity: Bool {
        if case .identity = self { return true }
        return [0.0, 0.2, 0.5, 0.8, 1.0].allSatisfy { abs(self($0) - $0) < 1.0 / 65535 }
    }
}
