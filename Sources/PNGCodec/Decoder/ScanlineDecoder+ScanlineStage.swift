import ImageCore

/// The one-thread stage: rows are drawn the moment their bytes arrive, so the canvas is always current.
extension ScanlineDecoder: ScanlineStage {
    func picture(orientation: Orientation, iccProfile: [UInt8]?) -> Image {
        canvas.image(orientation: orientation, iccProfile: iccProfile)
    }
}
