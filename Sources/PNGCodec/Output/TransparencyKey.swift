/// A tRNS colour key for gray or RGB images (PNG 11.3.2.1): pixels exactly equal to it are transparent.
///
/// Samples are compared as stored (before any scaling), 16 bits wide. A key above what the bit
/// depth can hold is cut to that many low bits, as libpng's expansion does (`png_do_expand`
/// masks it, after warning that tRNS has out-of-range samples): in a 1-bit image the key 255
/// makes white transparent.
struct TransparencyKey: Equatable {
    /// Gray value, or red.
    let first: UInt16
    /// Green (RGB only).
    let second: UInt16
    /// Blue (RGB only).
    let third: UInt16

    /// Parses tRNS data for a gray (2 bytes) or RGB (6 bytes) image of `bitDepth` (1...16); nil
    /// for any other length.
    init?(_ data: UnsafeRawBufferPointer, colorType: PNGColorType, bitDepth: Int) {
        let mask = bitDepth >= 16 ? UInt16.max : UInt16(truncatingIfNeeded: (1 << max(bitDepth, 1)) - 1)
        switch colorType {
        case .gray where data.count == 2:
            first = readUInt16(data, 0) & mask; second = 0; third = 0
        case .rgb where data.count == 6:
            first = readUInt16(data, 0) & mask; second = readUInt16(data, 2) & mask; third = readUInt16(data, 4) & mask
        default:
            return nil
        }
    }
}
