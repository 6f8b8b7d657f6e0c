import ImageCore

/// The geometry of the whole frame at the chosen output scale: MCU grid, output size and each
/// component's IDCT size and upsampling (libjpeg-turbo's jdmaster.c and jdinput.c rules).
struct FrameLayout {
    /// Stored size.
    var width: Int
    var height: Int
    /// Output size: ceil(size × smallest block size / 8).
    var outputWidth: Int
    var outputHeight: Int
    var maxHorizontalSampling: Int
    var maxVerticalSampling: Int
    /// MCUs per row and MCU rows of an interleaved scan (= iMCU rows).
    var mcusPerRow: Int
    var mcuRows: Int
    /// The smallest IDCT size: 8 / scale denominator.
    var minBlockSize: Int
    /// Output rows per iMCU row: Vmax × minBlockSize.
    var outputRowsPerIMCU: Int
    var components: [ComponentLayout]

    /// Computes the layout; throws `unsupported` for sampling ratios libjpeg cannot upsample.
    init(frame: FrameHeader, scale: ScaleFactor, at offset: Int) throws {
        width = frame.width
        height = frame.height
        let hMax = frame.maxHorizontalSampling, vMax = frame.maxVerticalSampling
        maxHorizontalSampling = hMax
        maxVerticalSampling = vMax
        let minSize = 8 / scale.denominator
        minBlockSize = minSize
        outputWidth = Self.divideRoundingUp(width * minSize, 8)
        outputHeight = Self.divideRoundingUp(height * minSize, 8)
        mcusPerRow = Self.divideRoundingUp(width, 8 * hMax)
        mcuRows = Self.divideRoundingUp(height, 8 * vMax)
        outputRowsPerIMCU = vMax * minSize
        components = []
        for (index, component) in frame.components.enumerated() {
            let h = component.horizontalSampling, v = component.verticalSampling
            // jdmaster.c: scale chroma up in the IDCT rather than by upsampling, while the
            // ratios stay powers of two (e.g. 4:2:0 at 1/2 scale: Y 4×4 IDCT, Cb/Cr 8×8, no upsampling).
            var size = minSize
            while size < 8 && (hMax * minSize) % (h * size * 2) == 0 && (vMax * minSize) % (v * size * 2) == 0 {
                size *= 2
            }
            let groupWidth = h * size / minSize, groupHeight = v * size / minSize
            guard hMax % groupWidth == 0, vMax % groupHeight == 0, (h * size) % minSize == 0, (v * size) % minSize == 0 else {
                throw ImageDecodingError(.unsupported, at: offset,
                                         "component \(component.id) has sampling \(h)x\(v) against \(hMax)x\(vMax): fractional upsampling is not supported")
            }
            let expandH = hMax / groupWidth, expandV = vMax / groupHeight
            let downsampledWidth = Self.divideRoundingUp(width * h * size, hMax * 8)
            let downsampledHeight = Self.divideRoundingUp(height * v * size, vMax * 8)
            let method = UpsamplingMethod.select(horizontal: expandH, vertical: expandV,
                                                 downsampledWidth: downsampledWidth, fancyAllowed: minSize > 1)
            components.append(ComponentLayout(
                index: index, horizontalSampling: h, verticalSampling: v,
                quantizationTable: component.quantizationTable, blockSize: size,
                widthInBlocks: Self.divideRoundingUp(Self.divideRoundingUp(width * h, hMax), 8),
                heightInBlocks: Self.divideRoundingUp(Self.divideRoundingUp(height * v, vMax), 8),
                blocksPerLine: mcusPerRow * h, blockRows: mcuRows * v,
                downsampledWidth: downsampledWidth, downsampledHeight: downsampledHeight,
                rowsPerIMCU: v * size, upsampling: method,
                horizontalExpansion: expandH, verticalExpansion: expandV))
        }
    }

    /// libjpeg's `jdiv_round_up`.
    static func divideRoundingUp(_ a: Int, _ b: Int) -> Int { (a + b - 1) / b }
}
