/// A tRNS colour key for gray or RGB images (PNG 11.3.2.1): pixels exactly equal to it are transparent.
///
/// Samples are compared as stored (before any scaling), 16 bits wide. A key above what the bit
/// depth can hold never matches, as in libpng (which only warns about it).
struct TransparencyKey: Equatable {
    /// Gray value, or red.
    let first: UInt16
    /// Green (RGB only).
    let second: UInt16
    /// Blue (RGB only).
    let third: UInt16

    /// Parses tRNS data for a gray (2 bytes) or RGB (6 bytes) image; nil for any other length.
    init?(_ data: UnsafeRawBufferPointer, colorType: PNGColorType) {
        switch colorType {
        case .gray where data.count == 2:
            first = readUInt16(data, 0); second = 0; third = 0
        case .rgb where data.count == 6:
            first = readUInt16(data, 0); second = readUInt16(data, 2); third = readUInt16(data, 4)
        default:
            return nil
        }
    }
}
