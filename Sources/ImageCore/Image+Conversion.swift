extension Image {
    /// Returns the image in another pixel format.
    ///
    /// Rules (the ones the conformance references use):
    /// - gray becomes R = G = B; a missing alpha becomes the maximum value;
    /// - 8 → 16 bits multiplies by 257 (exact: 0xAB becomes 0xABAB);
    /// - 16 → 8 bits rounds, `(v * 255 + 32895) >> 16` (libpng's `png_set_scale_16`);
    /// - colour → gray uses the Rec. 601 luma weights `(19595 R + 38470 G + 7471 B + 32768) >> 16`;
    /// - `cmyk8` → RGB is `R = round(C·K / 255)` etc. on the stored values, as libjpeg-turbo's djpeg writes it;
    ///   converting to `cmyk8` is not offered and returns the image unchanged.
    public func converted(to target: PixelFormat) -> Image {
        if target == format || target == .cmyk8 { return self }
        if format == .rgb8 && target == .rgba8 { return rgb8ToRGBA8() }
        var out = [UInt8](repeating: 0, count: width * height * target.bytesPerPixel)
        let pixelCount = width * height
        let src = format, dst = target
        pixels.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { output in
                for index in 0..<pixelCount {
                    let rgba = Image.readRGBA16(input, pixel: index, format: src)
                    Image.writeRGBA16(rgba, to: output, pixel: index, format: dst)
                }
            }
        }
        return Image(width: width, height: height, format: target, pixels: out,
                     orientation: orientation, iccProfile: iccProfile)
    }

    private func rgb8ToRGBA8() -> Image {
        let pixelCount = width * height
        var out = [UInt8](repeating: 255, count: pixelCount * 4)
        pixels.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { output in
                for index in 0..<pixelCount {
                    output[index * 4] = input[index * 3]
                    output[index * 4 + 1] = input[index * 3 + 1]
                    output[index * 4 + 2] = input[index * 3 + 2]
                }
            }
        }
        return Image(width: width, height: height, format: .rgba8, pixels: out,
                     orientation: orientation, iccProfile: iccProfile)
    }

    /// Reads one pixel as 16-bit R, G, B, A.
    private static func readRGBA16(_ p: UnsafeBufferPointer<UInt8>, pixel: Int, format: PixelFormat) -> SIMD4<UInt32> {
        let base = pixel * format.bytesPerPixel
        func s8(_ i: Int) -> UInt32 { UInt32(p[base + i]) &* 257 }
        func s16(_ i: Int) -> UInt32 { UInt32(p[base + 2 * i]) << 8 | UInt32(p[base + 2 * i + 1]) }
        switch format {
        case .gray8: return SIMD4(s8(0), s8(0), s8(0), 65535)
        case .grayAlpha8: return SIMD4(s8(0), s8(0), s8(0), s8(1))
        case .rgb8: return SIMD4(s8(0), s8(1), s8(2), 65535)
        case .rgba8: return SIMD4(s8(0), s8(1), s8(2), s8(3))
        case .gray16: return SIMD4(s16(0), s16(0), s16(0), 65535)
        case .grayAlpha16: return SIMD4(s16(0), s16(0), s16(0), s16(1))
        case .rgb16: return SIMD4(s16(0), s16(1), s16(2), 65535)
        case .rgba16: return SIMD4(s16(0), s16(1), s16(2), s16(3))
        case .cmyk8:
            let k = UInt32(p[base + 3])
            // round(C*K/255): the numerator is never an odd multiple of 127.5, so +127 rounds exactly.
            func channel(_ i: Int) -> UInt32 { ((UInt32(p[base + i]) * k + 127) / 255) * 257 }
            return SIMD4(channel(0), channel(1), channel(2), 65535)
        }
    }

    /// Writes one 16-bit R, G, B, A pixel in `format`.
    private static func writeRGBA16(_ v: SIMD4<UInt32>, to p: UnsafeMutableBufferPointer<UInt8>, pixel: Int, format: PixelFormat) {
        let base = pixel * format.bytesPerPixel
        func to8(_ x: UInt32) -> UInt8 { UInt8(truncatingIfNeeded: (x * 255 + 32895) >> 16) }
        func put16(_ i: Int, _ x: UInt32) {
            p[base + 2 * i] = UInt8(truncatingIfNeeded: x >> 8)
            p[base + 2 * i + 1] = UInt8(truncatingIfNeeded: x)
        }
        let luma = (19595 * v.x + 38470 * v.y + 7471 * v.z + 32768) >> 16
        switch format {
        case .gray8: p[base] = to8(luma)
        case .grayAlpha8: p[base] = to8(luma); p[base + 1] = to8(v.w)
        case .rgb8: p[base] = to8(v.x); p[base + 1] = to8(v.y); p[base + 2] = to8(v.z)
        case .rgba8, .cmyk8:
            p[base] = to8(v.x); p[base + 1] = to8(v.y); p[base + 2] = to8(v.z); p[base + 3] = to8(v.w)
        case .gray16: put16(0, luma)
        case .grayAlpha16: put16(0, luma); put16(1, v.w)
        case .rgb16: put16(0, v.x); put16(1, v.y); put16(2, v.z)
        case .rgba16: put16(0, v.x); put16(1, v.y); put16(2, v.z); put16(3, v.w)
        }
    }
}
