extension ICCProfile {
    /// An `XYZ ` tag's first value (e.g. a colorant or the media white point), nil if absent.
    public func xyz(_ signature: ICCSignature) throws -> SIMD3<Double>? {
        guard let (reader, start, end, type) = try tagData(signature) else { return nil }
        guard type == .xyzType else {
            throw ICCProfileError(.invalidData, at: start, "tag '\(signature)' has type '\(type)', expected 'XYZ '")
        }
        guard end - start >= 20 else { throw ICCProfileError(.truncated, at: start, "XYZ tag '\(signature)' is \(end - start) bytes, expected 20") }
        let v = try reader.s15Fixed16Array(start + 8, count: 3)
        return SIMD3(v[0], v[1], v[2])
    }

    /// A `curv` or `para` tag (a TRC), nil if absent.
    public func curve(_ signature: ICCSignature) throws -> ToneCurve? {
        guard let (reader, start, end, _) = try tagData(signature) else { return nil }
        return try ToneCurve.parse(reader, at: start, end: end).0
    }

    /// The `chad` tag (ICC.1 9.2.15): the matrix that adapted the actual illuminant to D50,
    /// nil if absent. Conversion to sRGB uses the D50-relative colorants as they are (relative
    /// colorimetry); `chad` is needed only to undo the adaptation (absolute colorimetry).
    public func chromaticAdaptation() throws -> Matrix3? {
        guard let (reader, start, end, type) = try tagData(.chromaticAdaptation) else { return nil }
        guard type == .s15Fixed16ArrayType, end - start >= 44 else {
            throw ICCProfileError(.invalidData, at: start, "chad is '\(type)' of \(end - start) bytes, expected sf32 of 44")
        }
        let e = try reader.s15Fixed16Array(start + 8, count: 9)
        return Matrix3(SIMD3(e[0], e[1], e[2]), SIMD3(e[3], e[4], e[5]), SIMD3(e[6], e[7], e[8]))
    }

    /// The source white point: `chad`⁻¹ × D50 when `chad` is present, else `wtpt` (v2), else D50.
    public func sourceWhitePoint() throws -> SIMD3<Double> {
        if let chad = try chromaticAdaptation(), let inverse = chad.inverse { return inverse * ChromaticAdaptation.d50 }
        return try xyz(.mediaWhitePoint) ?? ChromaticAdaptation.d50
    }

    /// The A2B (device → PCS) or B2A (PCS → device) transform in `signature`, nil if absent.
    public func lookupTransform(_ signature: ICCSignature) throws -> LUTPipeline? {
        let isAToB = [ICCSignature.aToB0, .aToB1, .aToB2].contains(signature)
        return try LUTPipeline.parse(self, tag: signature, isAToB: isAToB)
    }
}
