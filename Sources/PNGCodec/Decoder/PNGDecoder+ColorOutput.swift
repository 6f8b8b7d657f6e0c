import ColorManagement
import ImageCore

extension PNGDecoder {
    /// `image` in the colour space asked for (``DecodingOptions/colorSpace``); a profile that
    /// cannot be used becomes one warning and the pixels stay as decoded.
    func convertedForOutput(_ image: Image) -> Image {
        guard colorOutput.isEnabled else { return image }
        let hadProblem = colorOutput.problem != nil
        let (profile, fallback) = metadata.colorDescription(isGray: image.format.isGray)
        let converted = colorOutput.convert(image, iccProfile: profile, fallback: fallback)
        if !hadProblem, let warning = colorOutput.warning(at: nil) { warnings.append(warning) }
        return converted
    }

    /// An APNG frame with its canvas and region in the colour space asked for (the file's colour
    /// chunks describe every frame).
    func convertedForOutput(_ frame: AnimationFrame) -> AnimationFrame {
        colorOutput.isEnabled ? frame.mappingImages(convertedForOutput) : frame
    }
}

extension PNGMetadata {
    /// What the chunks say about colour, in PNG 3rd edition's order (4.3): `cICP`, then
    /// `iCCP`, then `sRGB`, then `cHRM`/`gAMA`. Returns the profile to use, if any, and the
    /// source to use without one (nil: sRGB, nothing to do). A `cICP` this library cannot
    /// convert (PQ, HLG, unknown code points) leaves the pixels as they are.
    func colorDescription(isGray: Bool) -> (iccProfile: [UInt8]?, fallback: ColorSource?) {
        if let cicp = codingIndependentCodePoints { return (nil, isGray ? nil : cicp.colorSource) }
        let chunks = srgbRenderingIntent != nil ? nil : ColorSource.png(gamma: gamma, chromaticities: chromaticities.map {
            Chromaticities(white: SIMD2(Double($0.whiteX), Double($0.whiteY)) / 100_000,
                           red: SIMD2(Double($0.redX), Double($0.redY)) / 100_000,
                           green: SIMD2(Double($0.greenX), Double($0.greenY)) / 100_000,
                           blue: SIMD2(Double($0.blueX), Double($0.blueY)) / 100_000)
        }, isGray: isGray)
        return (iccProfile, chunks)
    }
}
