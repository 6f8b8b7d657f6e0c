/// Black point compensation (ICC "BPC", as LittleCMS does it for the perceptual and saturation intents into a
/// v4 destination such as its sRGB profile): a per-channel linear map in PCS XYZ that takes
/// the source's black to sRGB's black (zero) and keeps the D50 white.
///
/// The source black is that of LittleCMS's `cmsDetectBlackPoint`: for a v4 LUT profile the
/// fixed perceptual reference-medium black of ICC.1 (X 0.00336, Y 0.0034731, Z 0.00287); for
/// a v2 one the PCS value of its darkest colorant (CMYK all ink, RGB and gray zero).
struct BlackPointCompensation: Sendable, Hashable {
    let scale: SIMD3<Double>
    let offset: SIMD3<Double>

    /// The v4 perceptual reference black (ICC.1:2010 6.2.4).
    static let perceptualReferenceBlack = SIMD3<Double>(0.00336, 0.0034731, 0.00287)

    /// Nil when the black is already zero (or unusable), so there is nothing to compensate.
    init?(profile: ICCProfile, pipeline: LUTPipeline) {
        let black: SIMD3<Double>
        if profile.majorVersion >= 4 {
            black = Self.perceptualReferenceBlack
        } else {
            let darkest = [Double](repeating: profile.colorSpace == .cmyk ? 1 : 0, count: pipeline.inputChannels)
            let pcs = pipeline.evaluate(darkest)
            let xyz = pipeline.pcsEncoding.xyz(SIMD3(pcs[0], pcs[1], pcs[2]))
            // LittleCMS distrusts a "black" lighter than L* 50. (Making the black neutral first,
            // as its source suggests, puts the synthetic press profiles 7 off LittleCMS 2.19's
            // output in the shadows; the black as evaluated is within 1.)
            black = CIELab.lightness(fromY: xyz.y) > 50 ? .zero : xyz
        }
        guard black != .zero else { return nil }
        let white = ChromaticAdaptation.d50
        let span = white - black
        guard span.x > 0, span.y > 0, span.z > 0 else { return nil }
        scale = white / span
        offset = -white * black / span
    }

    func apply(_ xyz: SIMD3<Double>) -> SIMD3<Double> { xyz * scale + offset }
}
