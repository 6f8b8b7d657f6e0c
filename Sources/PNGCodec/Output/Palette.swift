import ImageCore

/// PLTE entries (PNG 11.2.3) with their tRNS alpha (PNG 11.3.2.1), as 256 RGBA entries.
///
/// Indices past the end of PLTE read as opaque black, as libpng does (it keeps a zeroed
/// 256-entry palette): PNG 11.2.3 calls such indices an error, but a viewer can still show
/// every other pixel correctly, so this decoder does not reject the image.
struct Palette {
    /// 256 × (R, G, B, A), entry i at bytes 4i ..< 4i + 4. Example: entry 1 = red → bytes 4...7 = FF 00 00 FF.
    private(set) var rgba = [UInt8](repeating: 0, count: 1024)
    /// Entries PLTE declared (1 ... 256).
    let count: Int
    /// Whether a tRNS chunk gave any entry an alpha below 255.
    private(set) var hasAlpha = false

    /// Number of palette entries at most (PNG 11.2.3: 2^8).
    static let maxEntries = 256

    /// Parses PLTE data found at file offset `offset`.
    init(plte data: UnsafeRawBufferPointer, at offset: Int, bitDepth: Int) throws {
        guard data.count % 3 == 0, data.count >= 3, data.count <= Palette.maxEntries * 3 else {
            throw ImageDecodingError(.invalidData, at: offset,
                                     "PNG PLTE is \(data.count) bytes; it must be 3 × (1 ... 256) bytes")
        }
        count = data.count / 3
        // PNG 11.2.3: more entries than the bit depth can index is an error, but libpng
        // only warns and the extra entries are harmless, so they are kept.
        for index in 0..<Palette.maxEntries {
            rgba[index * 4 + 3] = 255
        }
        for index in 0..<count {
            rgba[index * 4] = data[index * 3]
            rgba[index * 4 + 1] = data[index * 3 + 1]
            rgba[index * 4 + 2] = data[index * 3 + 2]
        }
    }

    /// Applies a palette tRNS chunk: alpha for the first `data.count` entries.
    /// Returns false (chunk to be ignored, as libpng does) if it is empty or has more entries than the palette.
    mutating func applyTransparency(_ data: UnsafeRawBufferPointer) -> Bool {
        guard data.count >= 1, data.count <= count else { return false }
        for index in 0..<data.count {
            rgba[index * 4 + 3] = data[index]
            if data[index] != 255 { hasAlpha = true }
        }
        return true
    }
}
