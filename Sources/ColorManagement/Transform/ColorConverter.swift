import ImageCore

/// Converts decoded pixels to sRGB, from what the file says of its colours (a ``ColorSource``).
///
/// Everything is precomputed at init, so converting costs a few table lookups per pixel:
/// matrix/TRC sources use per-channel linearisation tables, a fixed-point matrix and a shared
/// encoding table; LUT-based profiles (`mft1`, `mft2`, `mAB `) are sampled once on a 33³ (RGB)
/// or 17⁴ (CMYK) grid that is then interpolated tetrahedrally; gray uses one table.
/// 8-bit stays 8-bit and 16-bit stays 16-bit; alpha is kept; CMYK becomes `rgb8`.
///
/// ```swift
/// let profile = try ICCProfile(image.iccProfile!)
/// if let converter = try ColorConverter(source: .iccProfile(profile), format: image.format) {
///     image = converter.convert(image)      // now sRGB
/// }
/// ```
public struct ColorConverter: Sendable {
    enum Kernel: Sendable {
        case matrixShaper(MatrixShaperKernel)
        case gray(GrayKernel)
        case grid(GridKernel)
    }

    /// The pixel format converted.
    public let inputFormat: PixelFormat
    /// The pixel format produced: the input's, or `rgb8` for `cmyk8`.
    public let outputFormat: PixelFormat
    let model: ConversionModel
    let kernel: Kernel
    let cmykIsInverted: Bool

    /// Prepares the conversion of `format` pixels from `source`. Returns nil when there is
    /// nothing to do (the source is sRGB); throws ``ICCProfileError`` when the source cannot
    /// be used: a profile that does not parse, or whose colour space does not match `format`.
    ///
    /// - Parameters:
    ///   - intent: which A2B transform of a LUT-based profile to use (default perceptual).
    ///   - cmykIsInverted: `cmyk8` samples are stored inverted, 255 meaning no ink, as Adobe
    ///     writes CMYK JPEGs (the decoder knows from the APP14 segment).
    public init?(source: ColorSource, format: PixelFormat, intent: RenderingIntent = .perceptual,
                 cmykIsInverted: Bool = false) throws {
        guard let model = try ConversionModel.make(source, intent: intent) else { return nil }
        let channels = format == .cmyk8 ? 4 : (format.isGray ? 1 : 3)
        guard channels == model.inputChannels else {
            throw ICCProfileError(.unsupported, at: 16, "source has \(model.inputChannels) channels, image is \(format)")
        }
        self.model = model
        self.inputFormat = format
        self.outputFormat = format == .cmyk8 ? .rgb8 : format
        self.cmykIsInverted = cmykIsInverted
        let sixteenBit = format.bytesPerSample == 2
        switch model {
        case .gray:
            kernel = .gray(GrayKernel(model: model, sixteenBitInput: sixteenBit))
        case .matrixShaper(let curves, let matrix):
            kernel = .matrixShaper(MatrixShaperKernel(curves: curves, toLinearSRGB: matrix, sixteenBitInput: sixteenBit))
        case .lut:
            kernel = channels == 1 ? .gray(GrayKernel(model: model, sixteenBitInput: sixteenBit))
                                   : .grid(GridKernel(model: model, invertedInput: cmykIsInverted))
        }
    }

    /// The image in sRGB. An image of another format than ``inputFormat`` is returned unchanged.
    public func convert(_ image: Image) -> Image {
        guard image.format == inputFormat else { return image }
        let count = image.width * image.height
        let stride = inputFormat.channelCount
        var result = image
        switch kernel {
        case .gray(let gray):
            result.pixels.withUnsafeMutableBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                if inputFormat.bytesPerSample == 2 { gray.run16(base, count: count, stride: stride) }
                else { gray.run8(base, count: count, stride: stride) }
            }
        case .matrixShaper(let matrix):
            result.pixels.withUnsafeMutableBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                if inputFormat.bytesPerSample == 2 { matrix.run16(base, count: count, stride: stride) }
                else { matrix.run8(base, count: count, stride: stride) }
            }
        case .grid(let grid):
            if inputFormat == .cmyk8 {
                var rgb = [UInt8](repeating: 0, count: count * 3)
                image.pixels.withUnsafeBufferPointer { source in
                    rgb.withUnsafeMutableBufferPointer { destination in
                        guard let s = source.baseAddress, let d = destination.baseAddress else { return }
                        grid.run8(s, inputStride: 4, d, outputStride: 3, count: count)
                    }
                }
                result = Image(width: image.width, height: image.height, format: .rgb8, pixels: rgb,
                               orientation: image.orientation, iccProfile: image.iccProfile)
            } else {
                result.pixels.withUnsafeMutableBufferPointer { buffer in
                    guard let base = buffer.baseAddress else { return }
                    if inputFormat.bytesPerSample == 2 { grid.run16(base, stride: stride, count: count) }
                    else { grid.run8(UnsafePointer(base), inputStride: stride, base, outputStride: stride, count: count) }
                }
            }
        }
        return result
    }

    /// The same conversion evaluated per pixel in doubles, without tables or grids: the
    /// careful twin the fast kernels are tested against.
    func convertCarefully(_ image: Image) -> Image {
        guard image.format == inputFormat else { return image }
        let inputChannels = inputFormat.channelCount
        let outputChannels = outputFormat.channelCount
        let maximum = inputFormat.bytesPerSample == 2 ? 65535.0 : 255.0
        let count = image.width * image.height
        var out = [UInt8](repeating: 0, count: count * outputFormat.bytesPerPixel)
        let bytes = inputFormat.bytesPerSample
        func sample(_ index: Int) -> Double {
            let value = bytes == 2 ? Int(image.pixels[2 * index]) << 8 | Int(image.pixels[2 * index + 1]) : Int(image.pixels[index])
            return Double(value) / maximum
        }
        func store(_ index: Int, _ value: Double) {
            let quantised = Int((value * maximum).rounded())
            if bytes == 2 {
                out[2 * index] = UInt8(truncatingIfNeeded: quantised >> 8)
                out[2 * index + 1] = UInt8(truncatingIfNeeded: quantised)
            } else {
                out[index] = UInt8(truncatingIfNeeded: quantised)
            }
        }
        // LUT sources: the same grid as the fast kernel, interpolated in doubles.
        let grid: ColorLookupTable? = {
            if case .lut = model, model.inputChannels >= 3 { return model.sampled(points: GridKernel.gridPoints(inputs: model.inputChannels)) }
            return nil
        }()
        var interpolated = [Double](repeating: 0, count: 3)
        for pixel in 0..<count {
            let first = pixel * inputChannels
            switch model.inputChannels {
            case 1:
                store(pixel * outputChannels, model.gray(sample(first)))
            default:
                var device = (0..<model.inputChannels).map { sample(first + $0) }
                if inputFormat == .cmyk8, cmykIsInverted { device = device.map { 1 - $0 } }
                if let grid {
                    grid.interpolate(device, into: &interpolated)
                } else {
                    let rgb = model.rgb(device)
                    interpolated = [rgb.x, rgb.y, rgb.z]
                }
                for channel in 0..<3 { store(pixel * outputChannels + channel, interpolated[channel]) }
            }
            if inputFormat.hasAlpha {
                // Alpha is the last sample of both formats; copy its bytes.
                for byte in 0..<bytes {
                    out[(pixel * outputChannels + outputChannels - 1) * bytes + byte] =
                        image.pixels[(first + inputChannels - 1) * bytes + byte]
                }
            }
        }
        return Image(width: image.width, height: image.height, format: outputFormat, pixels: out,
                     orientation: image.orientation, iccProfile: image.iccProfile)
    }
}
