import ImageCore

/// Writes the stored rows of one pass (PNG 7.2, 8.2), one at a time: the pass's pixels
/// converted to the layout's samples and packed, without the filter byte. Sub-byte samples are
/// packed from the most significant bit, and the last byte of a row is padded with zeros.
enum ScanlinePacker {
    /// Packs row `j` of `pass` of `image` into `target` (`layout.rowBytes(width: columns)` bytes).
    ///
    /// - Requires: `j < pass.rows(inHeight: image.height)` and the pass has at least one column.
    static func packRow(_ j: Int, of image: Image, layout: PNGSampleLayout, pass: Adam7Pass,
                        into target: UnsafeMutablePointer<UInt8>) {
        let columns = pass.columns(inWidth: image.width)
        let pixelBytes = image.format.bytesPerPixel
        image.pixels.withUnsafeBufferPointer { pixels in
            guard let base = pixels.baseAddress else { return }
            let source = base + (pass.yStart + j * pass.yStep) * image.bytesPerRow + pass.xStart * pixelBytes
            switch layout {
            case .direct:
                let step = pass.xStep * pixelBytes
                for i in 0..<columns {
                    (target + i * pixelBytes).update(from: source + i * step, count: pixelBytes)
                }
            case .reducedGray(let depth):
                let divisor = UInt8(255 / ((1 << depth) - 1))
                packBits(target, columns: columns, depth: depth) { source[$0 * pass.xStep] / divisor }
            case .palette(let palette, let depth):
                let channels = image.format.channelCount
                packBits(target, columns: columns, depth: depth) {
                    palette.index(of: PNGPalette.color(source + $0 * pass.xStep * channels, channels))
                }
            }
        }
    }

    /// Writes `columns` values of `depth` bits (1, 2, 4 or 8), most significant first.
    @inline(__always)
    private static func packBits(_ target: UnsafeMutablePointer<UInt8>, columns: Int, depth: Int, _ value: (Int) -> UInt8) {
        let perByte = 8 / depth
        var i = 0, byteIndex = 0
        while i < columns {
            var byte: UInt8 = 0
            for k in 0..<perByte {
                let sample = i + k < columns ? value(i + k) : 0
                byte |= sample << UInt8(8 - depth * (k + 1))
            }
            target[byteIndex] = byte
            byteIndex += 1
            i += perByte
        }
    }
}
