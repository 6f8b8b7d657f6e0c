import ImageCore

/// Converts a row of natural-format pixels to `rgba8` or `rgba16`, by the rules of
/// `Image.converted(to:)` (and of the conformance references): gray → R = G = B,
/// missing alpha → maximum, 8 → 16 bits × 257, 16 → 8 bits `(v × 255 + 32895) >> 16`
/// (libpng's `png_set_scale_16`).
enum RowConverter {
    /// Converts `columns` pixels from `source` (format `from`) into `output` (format `to`, rgba8 or rgba16).
    static func convert(_ source: UnsafePointer<UInt8>, from: PixelFormat, to: PixelFormat, columns: Int,
                        into output: UnsafeMutablePointer<UInt8>) {
        let channels = from.channelCount
        let sourceBytes = from.bytesPerPixel
        let hasAlpha = from.hasAlpha, isGray = from.isGray
        let wide = from.bytesPerSample == 2
        if to == .rgba8 && from == .rgb8 {
            rgb8ToRGBA8(source, columns, output)
            return
        }
        if to == .rgba8 && !wide {
            // 8 → 8: only channels move.
            for x in 0..<columns {
                let s = source + x * sourceBytes, d = output + x * 4
                if isGray { d[0] = s[0]; d[1] = s[0]; d[2] = s[0] } else { d[0] = s[0]; d[1] = s[1]; d[2] = s[2] }
                d[3] = hasAlpha ? s[channels - 1] : 255
            }
            return
        }
        // General path: read each sample as 16 bits, write 8 or 16.
        @inline(__always) func sample(_ s: UnsafePointer<UInt8>, _ c: Int) -> UInt32 {
            wide ? UInt32(s[2 * c]) << 8 | UInt32(s[2 * c + 1]) : UInt32(s[c]) &* 257
        }
        let narrow = to == .rgba8
        for x in 0..<columns {
            let s = source + x * sourceBytes
            let r = sample(s, 0)
            let g = isGray ? r : sample(s, 1)
            let b = isGray ? r : sample(s, 2)
            let a = hasAlpha ? sample(s, channels - 1) : 65535
            if narrow {
                // (v × 255 + 32895) >> 16 ≤ (65535 × 255 + 32895) >> 16 = 255: fits a byte.
                let d = output + x * 4
                d[0] = UInt8(truncatingIfNeeded: (r &* 255 &+ 32895) >> 16)
                d[1] = UInt8(truncatingIfNeeded: (g &* 255 &+ 32895) >> 16)
                d[2] = UInt8(truncatingIfNeeded: (b &* 255 &+ 32895) >> 16)
                d[3] = UInt8(truncatingIfNeeded: (a &* 255 &+ 32895) >> 16)
            } else {
                let d = output + x * 8
                d[0] = UInt8(truncatingIfNeeded: r >> 8); d[1] = UInt8(truncatingIfNeeded: r)
                d[2] = UInt8(truncatingIfNeeded: g >> 8); d[3] = UInt8(truncatingIfNeeded: g)
                d[4] = UInt8(truncatingIfNeeded: b >> 8); d[5] = UInt8(truncatingIfNeeded: b)
                d[6] = UInt8(truncatingIfNeeded: a >> 8); d[7] = UInt8(truncatingIfNeeded: a)
            }
        }
    }

    /// RGB → RGBA with 4-byte moves: each pixel but the last is read as R, G, B plus the next
    /// pixel's R, whose byte is replaced by 255 (the fourth byte in memory order).
    private static func rgb8ToRGBA8(_ source: UnsafePointer<UInt8>, _ columns: Int, _ output: UnsafeMutablePointer<UInt8>) {
        guard columns > 0 else { return }
        let opaque = UInt32(0xFF00_0000)
        for x in 0..<(columns - 1) {
            let rgbx = UInt32(littleEndian: UnsafeRawPointer(source + 3 * x).loadUnaligned(as: UInt32.self))
            UnsafeMutableRawPointer(output + 4 * x).storeBytes(of: (rgbx | opaque).littleEndian, as: UInt32.self)
        }
        let last = columns - 1
        let s = source + 3 * last, d = output + 4 * last
        d[0] = s[0]; d[1] = s[1]; d[2] = s[2]; d[3] = 255
    }
}
