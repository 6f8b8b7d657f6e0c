import ImageCore

/// How an image's pixels are stored in the PNG: the IHDR colour type and bit depth, and what
/// turns a pixel into stored samples.
///
/// ``PNGEncoder`` picks the smallest layout that decodes back to the same image in the same
/// ``PixelFormat`` (PNG 12.5 recommends the least bits that hold the data): gray8 whose samples
/// are all multiples of 255 / (2^d − 1) becomes d-bit gray (the decoder scales them back by bit
/// replication, PNG 13.12), RGB and RGBA with at most 256 colours become a palette (RGBA with a
/// tRNS chunk, so it decodes to RGBA again); everything else is stored as it is.
enum PNGSampleLayout {
    /// The image's own samples: 8 or 16 bits, no conversion.
    case direct(PNGColorType, bitDepth: Int)
    /// gray8 samples divided by 255 / (2^bitDepth − 1), bitDepth 1, 2 or 4.
    case reducedGray(bitDepth: Int)
    /// Palette indices of `bitDepth` bits (1, 2, 4 or 8).
    case palette(PNGPalette, bitDepth: Int)

    /// The layout for `image` (cmyk8 must already be converted); `reduce` false keeps it direct.
    static func choose(for image: Image, reduce: Bool) -> PNGSampleLayout {
        let direct = PNGSampleLayout.direct(directColorType(image.format), bitDepth: image.format.bytesPerSample * 8)
        guard reduce, image.width > 0, image.height > 0 else { return direct }
        switch image.format {
        case .gray8:
            if let depth = grayBitDepth(image.pixels) { return .reducedGray(bitDepth: depth) }
        case .rgb8, .rgba8:
            if let palette = PNGPalette(image) {
                let count = palette.colors.count
                return .palette(palette, bitDepth: count <= 2 ? 1 : count <= 4 ? 2 : count <= 16 ? 4 : 8)
            }
        default:
            break
        }
        return direct
    }

    /// IHDR colour type.
    var colorType: PNGColorType {
        switch self {
        case .direct(let type, _): return type
        case .reducedGray: return .gray
        case .palette: return .palette
        }
    }

    /// IHDR bit depth.
    var bitDepth: Int {
        switch self {
        case .direct(_, let depth), .reducedGray(let depth), .palette(_, let depth): return depth
        }
    }

    /// Bits per stored pixel.
    var bitsPerPixel: Int { colorType.channels * bitDepth }

    /// Bytes of one stored row of `width` pixels (PNG 7.2: rounded up to whole bytes).
    func rowBytes(width: Int) -> Int { (width * bitsPerPixel + 7) / 8 }

    /// The filters' byte distance to the corresponding byte of the pixel on the left: bytes
    /// per pixel, at least 1 (PNG 9.2).
    var filterStride: Int { max(1, bitsPerPixel / 8) }

    /// Whether samples are the image's bytes unchanged (rows can be filtered in place).
    var isDirect: Bool {
        if case .direct = self { return true }
        return false
    }

    private static func directColorType(_ format: PixelFormat) -> PNGColorType {
        switch format {
        case .gray8, .gray16: return .gray
        case .grayAlpha8, .grayAlpha16: return .grayAlpha
        case .rgb8, .rgb16, .cmyk8: return .rgb
        case .rgba8, .rgba16: return .rgba
        }
    }

    /// The fewest bits (1, 2 or 4) that hold every sample exactly, or nil when 8 are needed.
    private static func grayBitDepth(_ samples: [UInt8]) -> Int? {
        // A d-bit sample s decodes to s · 255 / (2^d − 1): multiples of 255, 85 or 17.
        var fits1 = true, fits2 = true
        for value in samples {
            guard value % 17 == 0 else { return nil }
            fits2 = fits2 && value % 85 == 0
            fits1 = fits1 && (value == 0 || value == 255)
        }
        return fits1 ? 1 : fits2 ? 2 : 4
    }
}
