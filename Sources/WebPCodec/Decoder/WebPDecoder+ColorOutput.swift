import ColorManagement
import ImageCore

extension WebPDecoder {
    /// `image` in the colour space asked for (``DecodingOptions/colorSpace``), using the `ICCP`
    /// profile; a profile that cannot be used becomes one warning and the pixels stay as decoded.
    func convertedForOutput(_ image: Image) -> Image {
        guard colorOutput.isEnabled else { return image }
        let hadProblem = colorOutput.problem != nil
        let converted = colorOutput.convert(image, iccProfile: header?.iccProfile)
        if !hadProblem, let warning = colorOutput.warning(at: nil) { warnings.append(warning) }
        return converted
    }

    /// An animation frame with its canvas and region in the colour space asked for.
    func convertedForOutput(_ frame: AnimationFrame) -> AnimationFrame {
        colorOutput.isEnabled ? frame.mappingImages(convertedForOutput) : frame
    }
}
