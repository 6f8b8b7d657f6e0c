/// Writes decoded ARGB words (`0xAARRGGBB`) out as R, G, B(, A) bytes.
enum VP8LRowWriter {
    /// Writes `count` pixels from `argb` to `out` with `channels` 3 or 4 bytes each.
    ///
    /// Word at a time: a byte swap turns the pixel into `0xBBGGRRAA`, whose shift by 8 stores as
    /// R, G, B, 0; each such 4-byte store overlaps the next pixel's first byte, which that pixel's
    /// own store then overwrites, so the last pixel is written byte by byte to stay inside `out`.
    static func write(_ argb: UnsafePointer<UInt32>, count: Int, channels: Int, out: UnsafeMutablePointer<UInt8>) {
        guard count > 0 else { return }
        let raw = UnsafeMutableRawPointer(out)
        if channels == 4 {
            for x in 0..<count {
                let pixel = argb[x]
                let swapped = pixel & 0xFF00_FF00 | (pixel &>> 16 & 0xFF) | (pixel & 0xFF) &<< 16
                raw.storeBytes(of: UInt32(littleEndian: swapped), toByteOffset: x &* 4, as: UInt32.self)
            }
            return
        }
        for x in 0..<(count &- 1) {
            raw.storeBytes(of: UInt32(littleEndian: argb[x].byteSwapped &>> 8), toByteOffset: x &* 3, as: UInt32.self)
        }
        writeScalar(argb + (count &- 1), count: 1, channels: 3, out: out + (count &- 1) &* 3)
    }

    /// Byte by byte: the careful twin of ``write(_:count:channels:out:)``.
    static func writeScalar(_ argb: UnsafePointer<UInt32>, count: Int, channels: Int, out: UnsafeMutablePointer<UInt8>) {
        for x in 0..<count {
            let pixel = argb[x]
            let at = out + x * channels
            at[0] = UInt8(truncatingIfNeeded: pixel >> 16)
            at[1] = UInt8(truncatingIfNeeded: pixel >> 8)
            at[2] = UInt8(truncatingIfNeeded: pixel)
            if channels == 4 { at[3] = UInt8(truncatingIfNeeded: pixel >> 24) }
        }
    }
}
