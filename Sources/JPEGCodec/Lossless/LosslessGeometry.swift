import ImageCore

/// The sample grid of a lossless (SOF3) frame: every "block" is one sample (T.81 H.1), so a
/// component holds ceil(X · H / Hmax) × ceil(Y · V / Vmax) samples, and an interleaved MCU holds
/// H × V samples of each of its components (libjpeg-turbo's lossless geometry, data unit 1).
struct LosslessGeometry {
    /// One component's samples and how they stretch to the output (box replication: libjpeg-turbo
    /// does not use fancy upsampling when the DCT size is 1).
    struct Component {
        var horizontalSampling: Int
        var verticalSampling: Int
        /// Samples per row and rows (libjpeg's width_in_blocks, height_in_blocks).
        var width: Int
        var height: Int
        /// Output pixels per sample across and down.
        var expandH: Int
        var expandV: Int
    }

    var width: Int
    var height: Int
    /// Sample precision P, 2...16.
    var precision: Int
    var maxVerticalSampling: Int
    var maxHorizontalSampling: Int
    var components: [Component]

    /// Interleaved MCU rows = iMCU rows: ceil(Y / Vmax).
    var iMCURows: Int { (height + maxVerticalSampling - 1) / maxVerticalSampling }

    /// The grid of `frame`; throws `unsupported` for sampling ratios that are not whole numbers
    /// (libjpeg-turbo: "fractional sampling not implemented").
    init(frame: FrameHeader, at offset: Int) throws {
        width = frame.width
        height = frame.height
        precision = frame.precision
        maxHorizontalSampling = frame.maxHorizontalSampling
        maxVerticalSampling = frame.maxVerticalSampling
        components = try frame.components.map { component in
            let h = component.horizontalSampling, v = component.verticalSampling
            guard frame.maxHorizontalSampling % h == 0, frame.maxVerticalSampling % v == 0 else {
                throw ImageDecodingError(.unsupported, at: offset,
                                         "component \(component.id) has sampling \(h)x\(v) against \(frame.maxHorizontalSampling)x\(frame.maxVerticalSampling): fractional upsampling is not supported")
            }
            return Component(horizontalSampling: h, verticalSampling: v,
                             width: (frame.width * h + frame.maxHorizontalSampling - 1) / frame.maxHorizontalSampling,
                             height: (frame.height * v + frame.maxVerticalSampling - 1) / frame.maxVerticalSampling,
                             expandH: frame.maxHorizontalSampling / h, expandV: frame.maxVerticalSampling / v)
        }
    }

    /// Bytes of the 16-bit sample planes, nil on overflow.
    var planeBytes: Int? {
        var total = 0
        for component in components {
            let (samples, o1) = component.width.multipliedReportingOverflow(by: component.height)
            let (sum, o2) = total.addingReportingOverflow(samples)
            guard !o1, !o2, sum < Int.max / 2 else { return nil }
            total = sum
        }
        return total * 2
    }
}
