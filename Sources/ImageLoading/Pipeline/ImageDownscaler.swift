import IncrementalImage

/// Exact shrinking for thumbnails: an area-average (box) filter, so every output pixel is the
/// mean of the source area it covers, with partial pixels at the edges weighted by overlap.
///
/// Example: 5 source pixels to 2 covers [0, 2.5) and [2.5, 5): output 0 = (p0 + p1 + 0.5·p2) / 2.5.
/// Colour is averaged premultiplied by alpha, so transparent pixels do not bleed their colour.
/// Works on every ``PixelFormat`` (8- and 16-bit samples); the output keeps the input's format.
enum ImageDownscaler {
    /// The size with the longer side `maxPixelSize` and the aspect ratio kept (each side ≥ 1).
    /// An image already within the bound keeps its size.
    static func fittedSize(width: Int, height: Int, maxPixelSize: Int) -> (width: Int, height: Int) {
        let bound = max(maxPixelSize, 1)
        guard max(width, height) > bound else { return (width, height) }
        if width >= height {
            return (bound, max(1, Int((Double(height) * Double(bound) / Double(width)).rounded())))
        }
        return (max(1, Int((Double(width) * Double(bound) / Double(height)).rounded())), bound)
    }

    /// `image` shrunk to fit `maxPixelSize` (unchanged if it already fits).
    static func fit(_ image: Image, maxPixelSize: Int) -> Image {
        let size = fittedSize(width: image.width, height: image.height, maxPixelSize: maxPixelSize)
        guard size != (image.width, image.height) else { return image }
        return resize(image, width: size.width, height: size.height)
    }

    /// One output sample's sources along an axis: first source index and the weight of each.
    private struct Span {
        var first: Int
        var weights: [Float]
    }

    /// For each of `outCount` outputs, the covered sources of `inCount` and their overlaps, normalised to sum 1.
    private static func spans(from inCount: Int, to outCount: Int) -> [Span] {
        let ratio = Double(inCount) / Double(outCount)
        return (0..<outCount).map { index in
            let start = Double(index) * ratio, end = Double(index + 1) * ratio
            let first = Int(start), last = min(Int(end.rounded(.up)), inCount)
            var weights: [Float] = []
            for source in first..<max(last, first + 1) {
                weights.append(Float(min(end, Double(source + 1)) - max(start, Double(source))))
            }
            let total = weights.reduce(0, +)
            return Span(first: first, weights: weights.map { $0 / total })
        }
    }

    /// `image` resampled to `width` × `height` (meant for shrinking; each side ≥ 1).
    static func resize(_ image: Image, width: Int, height: Int) -> Image {
        let channels = image.format.channelCount
        let wide = image.format.bytesPerSample == 2
        let maxValue: Float = wide ? 65535 : 255
        let alpha = image.format.hasAlpha ? channels - 1 : -1
        let columns = spans(from: image.width, to: width)
        let rows = spans(from: image.height, to: height)
        let sourceWidth = image.width

        // Pass 1: each source row shrunk horizontally, premultiplied (height × width × channels floats).
        var horizontal = [Float](repeating: 0, count: image.height * width * channels)
        image.pixels.withUnsafeBufferPointer { source in
            horizontal.withUnsafeMutableBufferPointer { out in
                for y in 0..<image.height {
                    for (x, span) in columns.enumerated() {
                        let outBase = (y * width + x) * channels
                        for (offset, weight) in span.weights.enumerated() {
                            let pixel = (y * sourceWidth + span.first + offset) * channels
                            func sample(_ channel: Int) -> Float {
                                let index = pixel + channel
                                return wide ? Float(UInt16(source[2 * index]) << 8 | UInt16(source[2 * index + 1]))
                                            : Float(source[index])
                            }
                            let coverage = alpha >= 0 ? sample(alpha) / maxValue : 1
                            for channel in 0..<channels {
                                let value = channel == alpha ? sample(channel) : sample(channel) * coverage
                                out[outBase + channel] += value * weight
                            }
                        }
                    }
                }
            }
        }

        // Pass 2: columns shrunk vertically, then un-premultiplied and rounded.
        var pixels = [UInt8](repeating: 0, count: width * height * image.format.bytesPerPixel)
        horizontal.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { out in
                var accumulator = [Float](repeating: 0, count: channels)
                for (y, span) in rows.enumerated() {
                    for x in 0..<width {
                        for channel in 0..<channels { accumulator[channel] = 0 }
                        for (offset, weight) in span.weights.enumerated() {
                            let base = ((span.first + offset) * width + x) * channels
                            for channel in 0..<channels { accumulator[channel] += source[base + channel] * weight }
                        }
                        let coverage = alpha >= 0 ? accumulator[alpha] / maxValue : 1
                        for channel in 0..<channels {
                            var value = accumulator[channel]
                            if channel != alpha { value = coverage > 0 ? value / coverage : 0 }
                            let rounded = UInt32(min(max(value, 0), maxValue).rounded())
                            let index = (y * width + x) * channels + channel
                            if wide {
                                out[2 * index] = UInt8(truncatingIfNeeded: rounded >> 8)
                                out[2 * index + 1] = UInt8(truncatingIfNeeded: rounded)
                            } else {
                                out[index] = UInt8(truncatingIfNeeded: rounded)
                            }
                        }
                    }
                }
            }
        }
        return Image(width: width, height: height, format: image.format, pixels: pixels,
                     orientation: image.orientation, iccProfile: image.iccProfile)
    }
}
