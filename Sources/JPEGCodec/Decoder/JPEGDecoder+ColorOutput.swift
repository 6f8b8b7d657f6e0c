import ColorManagement
import ImageCore

extension JPEGDecoder {
    /// Whether a CMYK/YCCK frame keeps its CMYK samples for a CMYK ICC profile (sRGB output
    /// asked for). Without a profile the output is libjpeg's RGB (`R = C·K/255` on the stored,
    /// Adobe-inverted samples), which is also what browsers show for such files.
    var keepsCMYKForProfile: Bool {
        colorOutput.isEnabled && SRGBOutputStage.isCMYKProfile(iccProfile)
    }

    /// `image` in the colour space asked for (``DecodingOptions/colorSpace``), using the APP2 ICC
    /// profile; a profile that cannot be used becomes one warning and the pixels stay as
    /// decoded (CMYK kept for the profile then falls back to libjpeg's RGB).
    func convertedForOutput(_ image: Image) -> Image {
        // Raw CMYK asked for (`preferredFormat: .cmyk8`) is handed out as stored.
        guard colorOutput.isEnabled, options.preferredFormat != .cmyk8 else { return image }
        let hadProblem = colorOutput.problem != nil
        // Adobe (APP14) CMYK is stored inverted, as Photoshop writes it.
        let converted = colorOutput.convert(image, iccProfile: iccProfile, cmykIsInverted: adobeTransform != nil)
        if !hadProblem, let warning = colorOutput.warning(at: nil) { warn(warning, affectsPixels: false) }
        return converted.format == .cmyk8 ? converted.converted(to: .rgb8) : converted
    }
}
