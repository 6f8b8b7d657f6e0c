import ImageCore
import TestSupport

/// The test charts of TestImages/color/make_fixtures.py, built the same way, and the LittleCMS
/// references it wrote.
enum ColorCharts {
    /// 16 levels per channel, red slowest: 4096 colours in 64×64.
    static let rgb: Image = {
        let levels = (0..<16).map { UInt8((Double($0) * 255 / 15).rounded()) }
        var pixels: [UInt8] = []
        for r in levels { for g in levels { for b in levels { pixels += [r, g, b] } } }
        return Image(width: 64, height: 64, format: .rgb8, pixels: pixels)
    }()

    /// A 4096-step ramp.
    static let gray = Image(width: 64, height: 64, format: .gray8,
                            pixels: (0..<4096).map { UInt8((Double($0) * 255 / 4095).rounded()) })

    /// 8 levels per ink, cyan slowest (0 = no ink, as LittleCMS takes CMYK).
    static let cmyk: Image = {
        let levels = (0..<8).map { UInt8((Double($0) * 255 / 7).rounded()) }
        var pixels: [UInt8] = []
        for c in levels { for m in levels { for y in levels { for k in levels { pixels += [c, m, y, k] } } } }
        return Image(width: 64, height: 64, format: .cmyk8, pixels: pixels)
    }()

    /// `reference/NAME-INTENT.bin`: LittleCMS's 8-bit RGB output for the chart.
    static func reference(_ name: String) throws -> [UInt8] { try Fixtures.bytes("color/reference/\(name).bin") }

    /// `profiles/NAME.icc`.
    static func profile(_ name: String) throws -> [UInt8] { try Fixtures.bytes("color/profiles/\(name).icc") }

    /// Largest absolute difference between 8-bit RGB samples of `image` (gray widened to RGB) and `reference`.
    static func maximumDifference(_ image: Image, _ reference: [UInt8]) -> Int {
        let rgb = image.format.isGray ? image.converted(to: .rgb8) : image
        let channels = rgb.format.channelCount
        var worst = 0
        for pixel in 0..<(rgb.width * rgb.height) {
            for channel in 0..<3 {
                let sample: Int
                if rgb.format.bytesPerSample == 2 {
                    let index = 2 * (pixel * channels + channel)
                    sample = ((Int(rgb.pixels[index]) << 8 | Int(rgb.pixels[index + 1])) * 255 + 32767) / 65535
                } else {
                    sample = Int(rgb.pixels[pixel * channels + channel])
                }
                worst = max(worst, abs(sample - Int(reference[3 * pixel + channel])))
            }
        }
        return worst
    }
}
