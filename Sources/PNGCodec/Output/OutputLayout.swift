import ImageCore

/// Which pixel formats the decoder produces for an image.
///
/// - `natural` is the file's own format (ARCHITECTURE.md): palette → rgb8/rgba8, gray below
///   8 bits → gray8, a tRNS chunk adds alpha, 16-bit stays 16-bit.
/// - `canvas` is what rows are expanded to while decoding: `rgba8` or `rgba16` directly when
///   asked for (the common conversions cost nothing extra), otherwise the natural format.
/// - `delivered` is what ``PNGDecoder/currentImage()`` returns: the preferred format if one was
///   asked for (converted from the canvas with `Image.converted(to:)` when it differs), else natural.
struct OutputLayout: Equatable {
    let natural: PixelFormat
    let canvas: PixelFormat
    let delivered: PixelFormat

    init(header: IHDRChunk, hasTransparency: Bool, preferred: PixelFormat?) {
        let wide = header.bitDepth == 16
        switch header.colorType {
        case .gray: natural = hasTransparency ? (wide ? .grayAlpha16 : .grayAlpha8) : (wide ? .gray16 : .gray8)
        case .grayAlpha: natural = wide ? .grayAlpha16 : .grayAlpha8
        case .rgb: natural = hasTransparency ? (wide ? .rgba16 : .rgba8) : (wide ? .rgb16 : .rgb8)
        case .rgba: natural = wide ? .rgba16 : .rgba8
        case .palette: natural = hasTransparency ? .rgba8 : .rgb8
        }
        // cmyk8 means "raw CMYK" for JPEG; PNG has no CMYK, so it keeps its natural format.
        let wanted = (preferred == nil || preferred == .cmyk8) ? natural : preferred ?? natural
        delivered = wanted
        canvas = (wanted == .rgba8 || wanted == .rgba16) ? wanted : natural
    }
}
