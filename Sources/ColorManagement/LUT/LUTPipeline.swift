/// How the last stage's 0 ... 1 values encode the profile connection space (ICC.1 6.3.4).
enum PCSEncoding: Sendable, Hashable {
    /// v4 Lab (and 8-bit Lab): L = 100·n, a = 255·n − 128.
    case lab
    /// v2 16-bit Lab of `lut16Type`: 0xFF00 is L 100, 0x8000 is a 0.
    case legacyLab16
    /// 16-bit XYZ (u1Fixed15Number): X = n·65535/32768.
    case xyz

    /// PCS XYZ (D50, Y of white = 1) from normalised pipeline output. Not clipped: like
    /// LittleCMS's floating-point PCS stage, a dark saturated Lab colour may give a negative Z,
    /// and it reaches the sRGB matrix as it is (the result is clipped once, when encoded).
    func xyz(_ n: SIMD3<Double>) -> SIMD3<Double> {
        switch self {
        case .lab:
            return CIELab.toXYZ(SIMD3(n.x * 100, n.y * 255 - 128, n.z * 255 - 128))
        case .legacyLab16:
            let scale = 65535.0 / 65280.0
            return CIELab.toXYZ(SIMD3(n.x * scale * 100, n.y * 65535 / 256 - 128, n.z * 65535 / 256 - 128))
        case .xyz:
            return n * (65535.0 / 32768.0)
        }
    }
}

/// One processing element of an A2B/B2A tag.
enum LUTStage: Sendable, Hashable {
    /// One curve per channel.
    case curves([ToneCurve])
    /// A 3×3 matrix plus offset (mAB/mBA, and lut8/lut16 with XYZ input).
    case matrix(Matrix3, offset: SIMD3<Double>)
    /// A multidimensional table.
    case table(ColorLookupTable)
}

/// An A2B or B2A transform (`mft1`, `mft2`, `mAB `, `mBA `): stages applied in order to
/// normalised 0 ... 1 values.
public struct LUTPipeline: Sendable, Hashable {
    /// Channels in.
    public let inputChannels: Int
    /// Channels out.
    public let outputChannels: Int
    let stages: [LUTStage]
    /// How the output encodes the PCS (meaningful for A2B tags).
    let pcsEncoding: PCSEncoding

    /// Runs the stages on `input` (``inputChannels`` values, 0 ... 1); returns ``outputChannels``
    /// values, each clamped to 0 ... 1.
    public func evaluate(_ input: [Double]) -> [Double] {
        if inputChannels <= 4, outputChannels <= 4, input.count <= 4 {
            var small = SIMD4<Double>(repeating: 0)
            for index in input.indices { small[index] = input[index] }
            let result = evaluateSmall(small)
            return (0..<outputChannels).map { result[$0] }
        }
        var values = input.map { Self.clamp($0) }
        for stage in stages {
            switch stage {
            case .curves(let curves):
                for index in values.indices where index < curves.count { values[index] = curves[index](values[index]) }
            case .matrix(let matrix, let offset):
                guard values.count == 3 else { continue }
                let v = matrix * SIMD3(values[0], values[1], values[2]) + offset
                values = [v.x, v.y, v.z].map { Self.clamp($0) }
            case .table(let table):
                var output = [Double](repeating: 0, count: table.outputChannels)
                table.interpolate(values, into: &output)
                values = output.map { Self.clamp($0) }
            }
        }
        return values
    }

    /// ``evaluate(_:)`` for at most 4 channels in and out, without allocating.
    func evaluateSmall(_ input: SIMD4<Double>) -> SIMD4<Double> {
        var values = input
        var channels = inputChannels
        for index in 0..<4 { values[index] = index < channels ? Self.clamp(values[index]) : 0 }
        for stage in stages {
            switch stage {
            case .curves(let curves):
                for index in 0..<min(channels, curves.count) { values[index] = curves[index](values[index]) }
            case .matrix(let matrix, let offset):
                let v = matrix * SIMD3(values[0], values[1], values[2]) + offset
                values = SIMD4(Self.clamp(v.x), Self.clamp(v.y), Self.clamp(v.z), 0)
                channels = 3
            case .table(let table):
                let output = table.interpolateSmall(values)
                channels = table.outputChannels
                for index in 0..<4 { values[index] = index < channels ? Self.clamp(output[index]) : 0 }
            }
        }
        return values
    }

    @inline(__always)
    static func clamp(_ value: Double) -> Double { value.isNaN ? 0 : min(max(value, 0), 1) }
}
