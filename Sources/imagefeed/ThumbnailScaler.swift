import ImageCore

/// Resizes a picture to an exact size for the contact sheet, as opaque RGB: each output pixel is
/// the plain mean of the whole source pixels in its box (a box filter), each first blended over a
/// background by its alpha. Enlarging repeats pixels (the box holds one source pixel).
///
/// Example: 900 source columns to 200: output column 0 covers columns 0 ..< 4 (900 · 1 / 200 = 4.5,
/// rounded down), column 1 covers 4 ..< 9.
enum ThumbnailScaler {
    /// `image` as an `rgb8` picture of `width` × `height` (each at least 1) over `background` grey.
    static func scale(_ image: Image, width: Int, height: Int, background: UInt8) -> Image {
        let source = image.converted(to: .rgba8)
        let columns = boxes(from: source.width, to: width), rows = boxes(from: source.height, to: height)
        let sourceWidth = source.width, backdrop = Int(background)
        var pixels = [UInt8](repeating: background, count: width * height * 3)
        source.pixels.withUnsafeBufferPointer { input in
            pixels.withUnsafeMutableBufferPointer { output in
                var target = 0
                for rowBox in rows {
                    for columnBox in columns {
                        // Sums of value · alpha + background · (255 − alpha): at most 540 000 source
                        // pixels · 65 025 for a whole 900 × 600 picture, far inside Int.
                        var red = 0, green = 0, blue = 0
                        for y in rowBox {
                            var pixel = (y * sourceWidth + columnBox.lowerBound) * 4
                            for _ in columnBox {
                                let alpha = Int(input[pixel + 3]), behind = backdrop * (255 - alpha)
                                red += Int(input[pixel]) * alpha + behind
                                green += Int(input[pixel + 1]) * alpha + behind
                                blue += Int(input[pixel + 2]) * alpha + behind
                                pixel += 4
                            }
                        }
                        let divisor = rowBox.count * columnBox.count * 255
                        output[target] = UInt8(truncatingIfNeeded: (red + divisor / 2) / divisor)
                        output[target + 1] = UInt8(truncatingIfNeeded: (green + divisor / 2) / divisor)
                        output[target + 2] = UInt8(truncatingIfNeeded: (blue + divisor / 2) / divisor)
                        target += 3
                    }
                }
            }
        }
        return Image(width: width, height: height, format: .rgb8, pixels: pixels)
    }

    /// For each of `outputCount` pixels along an axis, the source pixels of `inputCount` it averages:
    /// `⌊i · in / out⌋ ..< ⌊(i + 1) · in / out⌋`, never empty.
    static func boxes(from inputCount: Int, to outputCount: Int) -> [Range<Int>] {
        (0..<outputCount).map { index in
            let start = min(index * inputCount / outputCount, inputCount - 1)
            let end = min(max((index + 1) * inputCount / outputCount, start + 1), inputCount)
            return start..<end
        }
    }
}
