/// Turns an IDCT output (centred on 0) into an 8-bit sample: +128, clamped to 0...255.
///
/// libjpeg's C code uses a wrap-around table here while its SIMD code saturates; the two agree for
/// every value a valid file can produce (|v| < 384), and saturating is what djpeg on x86-64 does.
@inline(__always)
func clampSample(_ value: Int32) -> UInt8 {
    let shifted = value &+ 128
    return UInt8(truncatingIfNeeded: shifted < 0 ? 0 : (shifted > 255 ? 255 : shifted))
}

/// libjpeg's DESCALE: divide by 2^shift, rounding half up, on a value of up to 32 bits.
@inline(__always)
func descale(_ value: Int32, _ shift: Int32) -> Int32 {
    (value &+ (1 &<< (shift &- 1))) >> shift
}

/// Writes `count` (1, 2, 4 or 8) copies of `value` with one store (a `memset` call costs more
/// than the whole flat block it fills).
@inline(__always)
func fillSamples(_ output: UnsafeMutablePointer<UInt8>, with value: UInt8, count: Int) {
    let raw = UnsafeMutableRawPointer(output)
    let pattern = UInt64(value) &* 0x0101_0101_0101_0101
    switch count {
    case 8: raw.storeBytes(of: pattern, as: UInt64.self)
    case 4: raw.storeBytes(of: UInt32(truncatingIfNeeded: pattern), as: UInt32.self)
    case 2: raw.storeBytes(of: UInt16(truncatingIfNeeded: pattern), as: UInt16.self)
    default: output.update(repeating: value, count: count)
    }
}
