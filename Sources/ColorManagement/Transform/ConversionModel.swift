import ImageCore

/// The conversion from a source's device values to encoded sRGB, evaluated in doubles: the
/// exact definition every fast kernel is built from (by sampling it) and tested against.
enum ConversionModel: Sendable, Hashable {
    /// Three curves to linear RGB, then one matrix straight to linear sRGB (profile colorants
    /// × PCS → sRGB).
    case matrixShaper(curves: [ToneCurve], toLinearSRGB: Matrix3)
    /// A gray curve to PCS Y (or to L*/100 when the PCS is Lab).
    case gray(curve: ToneCurve, pcsIsLab: Bool)
    /// A LUT-based A2B transform to the PCS, then (perceptual and saturation intents) black point compensation,
    /// then PCS → sRGB.
    case lut(LUTPipeline, black: BlackPointCompensation?)

    /// The model for `source`, or nil when the source is sRGB already.
    static func make(_ source: ColorSource, intent: RenderingIntent) throws -> ConversionModel? {
        switch source {
        case .sRGB:
            return nil
        case .gray(let transfer):
            return .gray(curve: transfer, pcsIsLab: false)
        case .rgb(let primaries, let transfer):
            guard let toPCS = primaries.rgbToPCS else {
                throw ICCProfileError(.invalidData, at: 0, "chromaticities do not define RGB primaries")
            }
            return .matrixShaper(curves: [transfer, transfer, transfer], toLinearSRGB: SRGB.fromPCS * toPCS)
        case .iccProfile(let profile):
            return try make(profile, intent: intent)
        }
    }

    private static func make(_ profile: ICCProfile, intent: RenderingIntent) throws -> ConversionModel {
        guard profile.connectionSpace == .xyz || profile.connectionSpace == .lab else {
            throw ICCProfileError(.invalidData, at: 20, "connection space is \(profile.connectionSpace), expected XYZ or Lab")
        }
        switch profile.deviceClass {
        case .input, .display, .output, .colorSpace: break
        case .other(let signature):
            throw ICCProfileError(.unsupported, at: 12, "device class '\(signature)' is not a source profile")
        }
        guard let channels = profile.colorSpace.channelCount, [ICCColorSpace.gray, .rgb, .cmyk].contains(profile.colorSpace) else {
            throw ICCProfileError(.unsupported, at: 16, "colour space \(profile.colorSpace) is not gray, RGB or CMYK")
        }
        // LittleCMS's order: the LUT for the intent, then A2B0, then the matrix/TRC tags.
        let tags: [ICCSignature]
        switch intent {
        case .perceptual: tags = [.aToB0]
        case .relativeColorimetric: tags = [.aToB1, .aToB0]
        case .saturation: tags = [.aToB2, .aToB0]
        }
        for tag in tags where profile.hasTag(tag) {
            guard let pipeline = try LUTPipeline.parse(profile, tag: tag, isAToB: true) else { continue }
            guard pipeline.inputChannels == channels, pipeline.outputChannels == 3 else {
                throw ICCProfileError(.invalidData, at: 0, "\(tag) maps \(pipeline.inputChannels) → \(pipeline.outputChannels) channels, profile is \(channels) → 3")
            }
            // LittleCMS forces black point compensation for perceptual and saturation when
            // either profile is v4, and its sRGB is v4. A v2 profile's black comes from the
            // intent's own table; without one (no A2B2) LittleCMS takes black as zero: nothing
            // to compensate.
            let compensates = intent != .relativeColorimetric && (profile.majorVersion >= 4 || tag == tags.first)
            let black = compensates ? BlackPointCompensation(profile: profile, pipeline: pipeline) : nil
            return .lut(pipeline, black: black)
        }
        switch profile.colorSpace {
        case .gray:
            guard let curve = try profile.curve(.grayTRC) else {
                throw ICCProfileError(.unsupported, at: 128, "gray profile without kTRC or A2B0")
            }
            return .gray(curve: curve, pcsIsLab: profile.connectionSpace == .lab)
        case .rgb:
            guard profile.connectionSpace == .xyz else {
                throw ICCProfileError(.invalidData, at: 20, "matrix/TRC profile with a Lab connection space")
            }
            guard let red = try profile.xyz(.redColorant), let green = try profile.xyz(.greenColorant),
                  let blue = try profile.xyz(.blueColorant),
                  let redCurve = try profile.curve(.redTRC), let greenCurve = try profile.curve(.greenTRC),
                  let blueCurve = try profile.curve(.blueTRC) else {
                throw ICCProfileError(.unsupported, at: 128, "RGB profile without A2B0 or all of rXYZ/gXYZ/bXYZ/rTRC/gTRC/bTRC")
            }
            let colorants = Matrix3(columns: red, green, blue)
            guard colorants.inverse != nil else {
                throw ICCProfileError(.invalidData, at: 128, "rXYZ, gXYZ and bXYZ are not independent")
            }
            return .matrixShaper(curves: [redCurve, greenCurve, blueCurve], toLinearSRGB: SRGB.fromPCS * colorants)
        default:
            throw ICCProfileError(.unsupported, at: 128, "\(profile.colorSpace) profile without A2B0")
        }
    }

    /// Device channels the model takes.
    var inputChannels: Int {
        switch self {
        case .matrixShaper: return 3
        case .gray: return 1
        case .lut(let pipeline, _): return pipeline.inputChannels
        }
    }

    /// Encoded sRGB (0 ... 1 each) for device values (0 ... 1 each).
    func rgb(_ device: [Double]) -> SIMD3<Double> {
        let linear: SIMD3<Double>
        switch self {
        case .matrixShaper(let curves, let matrix):
            linear = matrix * SIMD3(curves[0](device[0]), curves[1](device[1]), curves[2](device[2]))
        case .gray:
            let y = grayLinear(device[0])
            linear = SIMD3(y, y, y)
        case .lut(let pipeline, let black):
            var small = SIMD4<Double>(repeating: 0)
            for index in 0..<min(device.count, 4) { small[index] = device[index] }
            let pcs = pipeline.evaluateSmall(small)
            let xyz = pipeline.pcsEncoding.xyz(SIMD3(pcs[0], pcs[1], pcs[2]))
            linear = SRGB.fromPCS * (black?.apply(xyz) ?? xyz)
        }
        return SIMD3(SRGB.encode(linear.x), SRGB.encode(linear.y), SRGB.encode(linear.z))
    }

    /// Encoded sRGB gray (0 ... 1) for a gray device value: the PCS white maps to sRGB white,
    /// so a gray stays neutral and one channel says it all.
    func gray(_ device: Double) -> Double {
        switch self {
        case .gray: return SRGB.encode(grayLinear(device))
        default: return rgb([device]).y
        }
    }

    /// The model sampled on a grid of `points` per input: encoded sRGB (0 ... 1) at every node,
    /// first input varying slowest. What the grid kernel quantises, and with
    /// ``ColorLookupTable/interpolate(_:into:)`` the careful twin of it.
    func sampled(points: Int) -> ColorLookupTable {
        let inputs = inputChannels
        let gridPoints = [Int](repeating: points, count: inputs)
        let total = gridPoints.reduce(1, *)
        var values = [Double](repeating: 0, count: 3 * total)
        var device = [Double](repeating: 0, count: inputs)
        for node in 0..<total {
            var rest = node
            for axis in (0..<inputs).reversed() {
                device[axis] = Double(rest % points) / Double(points - 1)
                rest /= points
            }
            let value = rgb(device)
            values[3 * node] = value.x
            values[3 * node + 1] = value.y
            values[3 * node + 2] = value.z
        }
        return ColorLookupTable(gridPoints: gridPoints, outputChannels: 3, values: values)
    }

    private func grayLinear(_ device: Double) -> Double {
        guard case .gray(let curve, let pcsIsLab) = self else { return 0 }
        let value = curve(device)
        return pcsIsLab ? CIELab.y(fromLightness: value * 100) : value
    }
}
