import ImageCore

/// Turns one unfiltered row (samples as stored) into pixels of the canvas format.
///
/// Two steps, each chosen once per image: samples → the natural format (unpacking 1/2/4-bit
/// samples, palette lookup, tRNS colour key → alpha), then natural → `rgba8`/`rgba16` when the
/// canvas is one of those. When the stored layout already is the canvas format (8- or 16-bit
/// samples without a colour key) there is nothing to do and ``isIdentity`` is true, so the
/// decoder unfilters straight into the canvas.
struct RowExpander {
    private enum Unpack {
        /// Stored samples are the natural format.
        case copy
        /// 1, 2 or 4-bit gray scaled to 8 bits by bit replication (× 255, 85, 17).
        case packedGray(depth: Int, keyed: Bool)
        /// 1, 2, 4 or 8-bit palette indices.
        case palette(depth: Int, alpha: Bool)
        /// 8-bit gray or RGB plus a colour key → added alpha.
        case keyed8(channels: Int)
        /// 16-bit gray or RGB plus a colour key → added alpha.
        case keyed16(channels: Int)
    }

    private let unpack: Unpack
    private let natural: PixelFormat
    private let canvas: PixelFormat
    private let palette: Palette?
    private let key: TransparencyKey?

    /// Whether rows need no work at all: the stored samples are the canvas pixels.
    var isIdentity: Bool {
        if case .copy = unpack { return natural == canvas }
        return false
    }

    /// Whether the natural row differs from the canvas row (a second conversion step is needed).
    var needsConversion: Bool { natural != canvas }

    init(header: IHDRChunk, layout: OutputLayout, palette: Palette?, key: TransparencyKey?) {
        natural = layout.natural
        canvas = layout.canvas
        self.palette = palette
        self.key = key
        switch header.colorType {
        case .palette:
            unpack = .palette(depth: header.bitDepth, alpha: layout.natural == .rgba8)
        case .gray where header.bitDepth < 8:
            unpack = .packedGray(depth: header.bitDepth, keyed: key != nil)
        case .gray, .rgb:
            let channels = header.colorType.channels
            if key == nil { unpack = .copy }
            else { unpack = header.bitDepth == 16 ? .keyed16(channels: channels) : .keyed8(channels: channels) }
        case .grayAlpha, .rgba:
            unpack = .copy
        }
    }

    /// Expands `columns` pixels from `stored` into `naturalRow` (natural format), then, if the
    /// canvas differs, converts them into `output`. Returns where the canvas pixels are
    /// (`stored`, `naturalRow` or `output`), so no step copies when it has nothing to change.
    func expand(_ stored: UnsafePointer<UInt8>, columns: Int, naturalRow: UnsafeMutablePointer<UInt8>,
                output: UnsafeMutablePointer<UInt8>) -> UnsafePointer<UInt8> {
        let naturalPixels: UnsafePointer<UInt8>
        switch unpack {
        case .copy:
            naturalPixels = stored
        case .packedGray(let depth, let keyed):
            unpackGray(stored, columns, depth, keyed, naturalRow)
            naturalPixels = UnsafePointer(naturalRow)
        case .palette(let depth, let alpha):
            if canvas == .rgba8 && !alpha {
                // Fused expand: without tRNS every table entry is already the RGBA pixel (alpha
                // 255), so indices go straight to the canvas format with no RGB step.
                unpackPalette(stored, columns, depth, true, output)
                return UnsafePointer(output)
            }
            unpackPalette(stored, columns, depth, alpha, naturalRow)
            naturalPixels = UnsafePointer(naturalRow)
        case .keyed8(let channels):
            addKeyAlpha8(stored, columns, channels, naturalRow)
            naturalPixels = UnsafePointer(naturalRow)
        case .keyed16(let channels):
            addKeyAlpha16(stored, columns, channels, naturalRow)
            naturalPixels = UnsafePointer(naturalRow)
        }
        guard needsConversion else { return naturalPixels }
        RowConverter.convert(naturalPixels, from: natural, to: canvas, columns: columns, into: output)
        return UnsafePointer(output)
    }

    /// PNG 7.2: sub-byte samples are packed most significant bits first.
    private func unpackGray(_ src: UnsafePointer<UInt8>, _ columns: Int, _ depth: Int, _ keyed: Bool,
                            _ dst: UnsafeMutablePointer<UInt8>) {
        let mask = (1 << depth) - 1
        // Bit replication: 1-bit × 255, 2-bit × 85 (0b01010101), 4-bit × 17 (0x11).
        let scale = 255 / mask
        let perByte = 8 / depth
        let keyValue = key.map { Int($0.first) } ?? -1
        for x in 0..<columns {
            let byte = Int(src[x / perByte])
            let shift = 8 - depth * (x % perByte + 1)
            let sample = (byte >> shift) & mask
            if keyed {
                dst[2 * x] = UInt8(truncatingIfNeeded: sample * scale)
                dst[2 * x + 1] = sample == keyValue ? 0 : 255
            } else {
                dst[x] = UInt8(truncatingIfNeeded: sample * scale)
            }
        }
    }

    private func unpackPalette(_ src: UnsafePointer<UInt8>, _ columns: Int, _ depth: Int, _ alpha: Bool,
                               _ dst: UnsafeMutablePointer<UInt8>) {
        guard let palette else { return }
        palette.rgba.withUnsafeBytes { table in
            guard let entries = table.baseAddress, columns > 0 else { return }
            // Each entry is moved as one 4-byte word. For RGB output the word's fourth byte (the
            // entry's alpha) lands on the next pixel's first byte, which that pixel's store then
            // overwrites; the last pixel is written byte by byte so nothing goes past the row.
            let outBytes = alpha ? 4 : 3
            @inline(__always) func entry(_ index: Int) -> UInt32 {
                entries.loadUnaligned(fromByteOffset: index &* 4, as: UInt32.self)
            }
            let wordColumns = alpha ? columns : columns - 1
            if depth == 8 {
                for x in 0..<wordColumns {
                    UnsafeMutableRawPointer(dst + x * outBytes).storeBytes(of: entry(Int(src[x])), as: UInt32.self)
                }
            } else {
                let mask = (1 << depth) - 1, perByte = 8 / depth
                for x in 0..<wordColumns {
                    let shift = 8 - depth * (x % perByte + 1)
                    let index = (Int(src[x / perByte]) >> shift) & mask
                    UnsafeMutableRawPointer(dst + x * outBytes).storeBytes(of: entry(index), as: UInt32.self)
                }
            }
            guard !alpha else { return }
            let last = columns - 1, perByte = 8 / depth
            let index = (Int(src[last / perByte]) >> (8 - depth * (last % perByte + 1))) & ((1 << depth) - 1)
            for channel in 0..<3 { dst[last * 3 + channel] = table[index * 4 + channel] }
        }
    }

    private func addKeyAlpha8(_ src: UnsafePointer<UInt8>, _ columns: Int, _ channels: Int,
                              _ dst: UnsafeMutablePointer<UInt8>) {
        guard let key else { return }
        let k0 = key.first, k1 = key.second, k2 = key.third
        let out = channels + 1
        for x in 0..<columns {
            let s = src + x * channels, d = dst + x * out
            var match = UInt16(s[0]) == k0
            d[0] = s[0]
            if channels == 3 {
                d[1] = s[1]; d[2] = s[2]
                match = match && UInt16(s[1]) == k1 && UInt16(s[2]) == k2
            }
            d[channels] = match ? 0 : 255
        }
    }

    private func addKeyAlpha16(_ src: UnsafePointer<UInt8>, _ columns: Int, _ channels: Int,
                               _ dst: UnsafeMutablePointer<UInt8>) {
        guard let key else { return }
        // Indexed without an array so the row loop allocates nothing.
        func keyComponent(_ c: Int) -> UInt16 { c == 0 ? key.first : (c == 1 ? key.second : key.third) }
        let inBytes = channels * 2, outBytes = inBytes + 2
        for x in 0..<columns {
            let s = src + x * inBytes, d = dst + x * outBytes
            var match = true
            for c in 0..<channels {
                d[2 * c] = s[2 * c]; d[2 * c + 1] = s[2 * c + 1]
                if UInt16(s[2 * c]) << 8 | UInt16(s[2 * c + 1]) != keyComponent(c) { match = false }
            }
            let alpha: UInt8 = match ? 0 : 255
            d[inBytes] = alpha; d[inBytes + 1] = alpha
        }
    }
}
