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
        if to == .rgba8 && (from == .gray8 || from == .grayAlpha8) {
            grayToRGBA8(source, columns, output, withAlpha: from == .grayAlpha8)
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

    /// Gray (+ alpha) → RGBA, one 4-byte store per pixel: in a little-endian word R is the low
    /// byte, so gray g gives g × 0x010101 (R = G = B = g) with alpha in the top byte.
    private static func grayToRGBA8(_ source: UnsafePointer<UInt8>, _ columns: Int, _ output: UnsafeMutablePointer<UInt8>,
                                    withAlpha: Bool) {
        let out = UnsafeMutableRawPointer(output)
        if withAlpha {
            for x in 0..<columns {
                let pixel = UInt32(source[2 * x]) &* 0x01_0101 | UInt32(source[2 * x + 1]) << 24
                out.storeBytes(of: pixel.littleEndian, toByteOffset: 4 * x, as: UInt32.self)
            }
        } else {
            for x in 0..<columns {
                let pixel = UInt32(source[x]) &* 0x01_0101 | 0xFF00_0000
                out.storeBytes(of: pixel.littleEndian, toByteOffset: 4 * x, as: UInt32.self)
            }
        }
    }

    /// RGB → RGBA with 4-byte moves, four pixels per step; the tail pixels but the last are read as
    /// R, G, B plus the next pixel's R, whose byte is replaced by 255 (the fourth byte in memory order).
    static func rgb8ToRGBA8(_ source: UnsafePointer<UInt8>, _ columns: Int, _ output: UnsafeMutablePointer<UInt8>) {
        guard columns > 0 else { return }
        let opaque = UInt32(0xFF00_0000)
        // Four pixels (12 bytes) from three 4-byte loads, little-endian lanes:
        // w0 = R0 G0 B0 R1, w1 = G1 B1 R2 G2, w2 = B2 R3 G3 B3 → four RGBA words by shifts.
        var x = 0
        while x + 4 <= columns {
            let s = UnsafeRawPointer(source + 3 * x), d = UnsafeMutableRawPointer(output + 4 * x)
            let w0 = UInt32(littleEndian: s.loadUnaligned(as: UInt32.self))
            let w1 = UInt32(littleEndian: s.loadUnaligned(fromByteOffset: 4, as: UInt32.self))
            let w2 = UInt32(littleEndian: s.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
            d.storeBytes(of: (w0 | opaque).littleEndian, as: UInt32.self)
            d.storeBytes(of: (w0 >> 24 | w1 << 8 | opaque).littleEndian, toByteOffset: 4, as: UInt32.self)
            d.storeBytes(of: (w1 >> 16 | w2 << 16 | opaque).littleEndian, toByteOffset: 8, as: UInt32.self)
            d.storeBytes(of: (w2 >> 8 | opaque).littleEndian, toByteOffset: 12, as: UInt32.self)
            x += 4
        }
        guard x < columns else { return }
        for x in x..<(columns - 1) {
            let rgbx = UInt32(littleEndian: UnsafeRawPointer(source + 3 * x).loadUnaligned(as: UInt32.self))
            UnsafeMutableRawPointer(output + 4 * x).storeBytes(of: (rgbx | opaque).littleEndian, as: UInt32.self)
        }
        let last = columns - 1
        let s = source + 3 * last, d = output + 4 * last
        d[0] = s[0]; d[1] = s[1]; d[2] = s[2]; d[3] = 255
    }
}
