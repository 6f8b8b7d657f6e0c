extension Image {
    /// Returns the picture turned upright according to ``orientation``; the result's orientation is `.up`.
    ///
    /// The mapping is EXIF's (and PIL's `exif_transpose`): for output pixel (x, y) of an image
    /// stored W × H, the source pixel is
    /// 2: (W-1-x, y) · 3: (W-1-x, H-1-y) · 4: (x, H-1-y) · 5: (y, x) · 6: (y, H-1-x) ·
    /// 7: (W-1-y, H-1-x) · 8: (W-1-y, x).
    public func applyingOrientation() -> Image {
        if orientation == .up { return Image(width: width, height: height, format: format, pixels: pixels,
                                             orientation: .up, iccProfile: iccProfile) }
        let w = width, h = height, bpp = format.bytesPerPixel
        let outWidth = orientation.swapsDimensions ? h : w
        let outHeight = orientation.swapsDimensions ? w : h
        var out = [UInt8](repeating: 0, count: pixels.count)
        let mode = orientation
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<outHeight {
                    for x in 0..<outWidth {
                        let sx: Int, sy: Int
                        switch mode {
                        case .up: (sx, sy) = (x, y)
                        case .upMirrored: (sx, sy) = (w - 1 - x, y)
                        case .down: (sx, sy) = (w - 1 - x, h - 1 - y)
                        case .downMirrored: (sx, sy) = (x, h - 1 - y)
                        case .leftMirrored: (sx, sy) = (y, x)
                        case .right: (sx, sy) = (y, h - 1 - x)
                        case .rightMirrored: (sx, sy) = (w - 1 - y, h - 1 - x)
                        case .left: (sx, sy) = (w - 1 - y, x)
                        }
                        let from = (sy * w + sx) * bpp, to = (y * outWidth + x) * bpp
                        for b in 0..<bpp { dst[to + b] = src[from + b] }
                    }
                }
            }
        }
        return Image(width: outWidth, height: outHeight, format: format, pixels: out,
                     orientation: .up, iccProfile: iccProfile)
    }
}
