import ImageCore

/// The distinct colours of an rgb8 or rgba8 image when there are at most 256 (PNG 11.2.3 PLTE,
/// 11.3.2.1 tRNS), with a lookup from colour to index.
///
/// Colours with alpha below 255 come first so the tRNS chunk lists only them; an RGBA image
/// always gets a tRNS chunk (at least one entry) so it decodes to RGBA again. Colours are
/// keyed as a little-endian `UInt32` of R, G, B, A (A = 255 for RGB).
struct PNGPalette {
    /// RGBA per index.
    let colors: [UInt32]
    /// Whether the image has alpha (the file gets tRNS).
    let hasAlpha: Bool
    /// Colour → index.
    private var table: ColorTable

    /// Collects the colours of `image` (rgb8 or rgba8); nil if there are more than 256.
    init?(_ image: Image) {
        let channels = image.format.channelCount
        guard image.format == .rgb8 || image.format == .rgba8 else { return nil }
        var table = ColorTable()
        var found: [UInt32] = []
        let ok = image.pixels.withUnsafeBufferPointer { pixels -> Bool in
            guard let base = pixels.baseAddress else { return true }
            var previous: UInt32? = nil
            for p in 0..<(image.width * image.height) {
                let color = PNGPalette.color(base + p * channels, channels)
                // Runs of one colour are common: skip the table for them.
                if color == previous { continue }
                previous = color
                if table.index(of: color) == nil {
                    guard found.count < 256 else { return false }
                    table.insert(color, index: UInt8(truncatingIfNeeded: found.count))
                    found.append(color)
                }
            }
            return true
        }
        guard ok else { return nil }
        hasAlpha = channels == 4
        // Translucent colours first (stable), then renumber.
        let ordered = found.filter { $0 >> 24 != 255 } + found.filter { $0 >> 24 == 255 }
        var orderedTable = ColorTable()
        for (index, color) in ordered.enumerated() { orderedTable.insert(color, index: UInt8(truncatingIfNeeded: index)) }
        colors = ordered
        self.table = orderedTable
    }

    /// The RGBA key of the pixel at `pixel`.
    @inline(__always)
    static func color(_ pixel: UnsafePointer<UInt8>, _ channels: Int) -> UInt32 {
        let alpha: UInt32 = channels == 4 ? UInt32(pixel[3]) : 255
        return UInt32(pixel[0]) | UInt32(pixel[1]) << 8 | UInt32(pixel[2]) << 16 | alpha << 24
    }

    /// The index of a colour of the image.
    @inline(__always)
    func index(of color: UInt32) -> UInt8 { table.index(of: color) ?? 0 }

    /// PLTE data: R, G, B per entry.
    var plteData: [UInt8] {
        colors.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8), UInt8(truncatingIfNeeded: $0 >> 16)] }
    }

    /// tRNS data: alpha of the leading translucent entries, at least one entry; nil without alpha.
    var trnsData: [UInt8]? {
        guard hasAlpha else { return nil }
        let alphas = colors.prefix { $0 >> 24 != 255 }.map { UInt8(truncatingIfNeeded: $0 >> 24) }
        return alphas.isEmpty ? [UInt8(truncatingIfNeeded: colors[0] >> 24)] : alphas
    }

    /// 512 slots of (colour, index) with linear probing: at most 256 entries, so probes stay short.
    struct ColorTable {
        private static let size = 512
        private var keys = [UInt32](repeating: 0, count: size)
        private var values = [UInt16](repeating: 0, count: size)   // index + 1; 0: empty

        @inline(__always)
        private static func slot(_ color: UInt32) -> Int { Int((color &* 0x9E37_79B1) >> 23) }

        func index(of color: UInt32) -> UInt8? {
            var slot = Self.slot(color)
            while values[slot] != 0 {
                if keys[slot] == color { return UInt8(truncatingIfNeeded: values[slot] - 1) }
                slot = (slot + 1) & (Self.size - 1)
            }
            return nil
        }

        mutating func insert(_ color: UInt32, index: UInt8) {
            var slot = Self.slot(color)
            while values[slot] != 0 { slot = (slot + 1) & (Self.size - 1) }
            keys[slot] = color
            values[slot] = UInt16(index) + 1
        }
    }
}
