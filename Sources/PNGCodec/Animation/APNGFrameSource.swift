import ImageCore

/// What decoding an fdAT frame needs from the file: IHDR (its depth, colour type and interlace
/// hold for every frame), PLTE and tRNS, and the options. Frames are decoded after IDAT, when
/// all of these are final.
struct APNGFrameSource {
    let header: IHDRChunk
    let palette: Palette?
    let key: TransparencyKey?
    let hasTransparency: Bool
    let options: DecodingOptions
    /// The frames' pixel format: rgba16 for a 16-bit file (unless an 8-bit format was asked
    /// for), else rgba8.
    let format: PixelFormat

    /// Sets up the image data stream for a frame of `region`'s size, its rows expanded to ``format``.
    func makeStream(for region: FrameRegion) -> ImageDataStream? {
        let frameHeader = IHDRChunk(width: region.width, height: region.height, bitDepth: header.bitDepth,
                                    colorType: header.colorType, isInterlaced: header.isInterlaced)
        let layout = OutputLayout(header: frameHeader, hasTransparency: hasTransparency, preferred: format)
        return ImageDataStream(header: frameHeader, layout: layout, palette: palette, key: key, options: options)
    }

    /// The frame format for a file of `bitDepth` decoded with `preferred` (cmyk8 means nothing to PNG).
    static func format(bitDepth: Int, preferred: PixelFormat?) -> PixelFormat {
        guard bitDepth == 16 else { return .rgba8 }
        guard let preferred, preferred != .cmyk8 else { return .rgba16 }
        return preferred.bytesPerSample == 2 ? .rgba16 : .rgba8
    }
}
