/// Writes small GIF files for tests, block by block (GIF89a sections 17–27).
enum TestGIFBuilder {
    /// Four opaque colours: red, green, blue, yellow.
    static let palette: [UInt8] = [200, 30, 30, 30, 200, 30, 30, 30, 200, 240, 240, 40]

    /// Signature, Logical Screen Descriptor and a global colour table of 4 entries (or none).
    static func header(width: Int, height: Int, palette: [UInt8]? = palette) -> [UInt8] {
        var bytes = Array("GIF89a".utf8) + le16(width) + le16(height)
        if let palette {
            bytes += [0x80 | 0x01, 0, 0] + palette + [UInt8](repeating: 0, count: max(0, 12 - palette.count))
        } else {
            bytes += [0, 0, 0]
        }
        return bytes
    }

    /// Graphic Control Extension.
    static func control(disposal: Int = 0, delay: Int = 0, transparent: Int? = nil) -> [UInt8] {
        [0x21, 0xF9, 4, UInt8(disposal << 2) | (transparent == nil ? 0 : 1)] + le16(delay) + [UInt8(transparent ?? 0), 0]
    }

    /// Image Descriptor, code size byte and `data` in sub-blocks of at most 255 bytes, then the terminator.
    static func image(x: Int = 0, y: Int = 0, width: Int, height: Int, minimumCodeSize: Int = 2, data: [UInt8],
                      interlaced: Bool = false) -> [UInt8] {
        var bytes: [UInt8] = [0x2C] + le16(x) + le16(y) + le16(width) + le16(height) + [interlaced ? 0x40 : 0, UInt8(minimumCodeSize)]
        var start = 0
        while start < data.count {
            let count = min(255, data.count - start)
            bytes += [UInt8(count)] + data[start..<start + count]
            start += count
        }
        return bytes + [0]
    }

    static let trailer: [UInt8] = [0x3B]

    /// LZW data where every index is one literal code (the width grows as the decoder grows it),
    /// starting with a clear code and ending with the end code.
    static func literalLZW(_ indices: [Int], minimumCodeSize: Int = 2) -> [UInt8] {
        var writer = BitWriter()
        let clear = 1 << minimumCodeSize, end = clear + 1
        var width = minimumCodeSize + 1, next = end
        writer.put(clear, width)
        for index in indices {
            writer.put(index, width)
            if next < 4096 {
                next += 1
                if width < 12 && next >= 1 << width { width += 1 }
            }
        }
        writer.put(end, width)
        return writer.flush()
    }

    /// Codes packed least significant bit first (GIF89a Appendix F).
    struct BitWriter {
        private var bytes: [UInt8] = []
        private var accumulator = 0
        private var count = 0

        mutating func put(_ code: Int, _ width: Int) {
            accumulator |= code << count
            count += width
            while count >= 8 {
                bytes.append(UInt8(accumulator & 0xFF))
                accumulator >>= 8
                count -= 8
            }
        }

        mutating func flush() -> [UInt8] {
            if count > 0 { bytes.append(UInt8(accumulator & 0xFF)) }
            return bytes
        }
    }

    private static func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
}
