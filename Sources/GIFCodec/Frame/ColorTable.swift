/// A frame's colours as 256 RGBA pixels, ready to store: entry `i` is the colour of index `i`.
///
/// The frame's transparent index maps to transparent black (0, 0, 0, 0); indices past the file's
/// table (all of them when the frame has no table) to opaque black, as Wuffs pads its palettes
/// (Chromium decodes GIF through Wuffs); every entry but the transparent one is opaque. So a
/// pixel is transparent exactly when its 32-bit value is 0. Values are in memory byte order R,
/// G, B, A.
struct ColorTable {
    static let entryCount = 256
    /// 256 entries, each the 4 bytes R, G, B, A read as one `UInt32` in memory order.
    private(set) var entries: [UInt32]

    /// Builds the table from `rgb` (3 bytes per colour, GIF89a sections 19 and 21).
    init(rgb: [UInt8], transparentIndex: Int?) {
        var entries = [UInt32](repeating: UInt32(0xFF << 24).littleEndian, count: Self.entryCount)
        let count = min(rgb.count / 3, Self.entryCount)
        for index in 0..<count {
            let red = UInt32(rgb[3 * index]), green = UInt32(rgb[3 * index + 1]), blue = UInt32(rgb[3 * index + 2])
            // `.littleEndian` puts red in the first byte in memory on any platform.
            entries[index] = (red | green << 8 | blue << 16 | 0xFF << 24).littleEndian
        }
        if let transparentIndex, transparentIndex < Self.entryCount { entries[transparentIndex] = 0 }
        self.entries = entries
    }
}
