import ImageCore

/// The APNG output buffer (APNG spec, "Output buffer" and the dispose/blend ops), in rgba8 or
/// rgba16 (big-endian samples, as `Image` keeps them).
///
/// Before the first frame the canvas is transparent black. Each frame's disposal is applied at
/// the start of the next frame, so the canvas handed out for a frame is what is shown during its
/// delay: `.background` clears the region to transparent black, `.previous` puts back what the
/// region held before the frame was drawn (a `.previous` on the first frame acts as
/// `.background`, as the spec says). `.source` replaces the region's pixels, alpha included;
/// `.over` blends them over the canvas (``AlphaOver``).
///
/// Memory: the canvas, plus the rows under the region of a `.previous` frame while it is shown.
struct APNGCompositor {
    /// What the last frame's disposal will do before the next frame is drawn.
    private enum PendingDisposal {
        case keep
        case clear(FrameRegion)
        /// The region's rows as they were before the frame, `region.width × bytesPerPixel` bytes each.
        case restore(FrameRegion, [UInt8])
    }

    let width: Int
    let height: Int
    let format: PixelFormat
    private let bytesPerPixel: Int
    private(set) var canvas: [UInt8]
    private var pending = PendingDisposal.keep
    private var isFirstFrame = true

    /// A transparent canvas; `format` is rgba8 or rgba16. The caller has checked the size against the limits.
    init(width: Int, height: Int, format: PixelFormat) {
        self.width = width
        self.height = height
        self.format = format
        bytesPerPixel = format.bytesPerPixel
        canvas = [UInt8](repeating: 0, count: width * height * format.bytesPerPixel)
    }

    /// The disposal a frame really gets: `.previous` on the first frame is `.background`.
    func effectiveDisposal(_ disposal: FrameDisposal) -> FrameDisposal {
        isFirstFrame && disposal == .previous ? .background : disposal
    }

    /// Applies the last frame's disposal, then draws `pixels` (`region.width × region.height` in
    /// the canvas format; the region lies inside the canvas) with `blend`, and records `disposal`.
    mutating func draw(_ pixels: [UInt8], region: FrameRegion, blend: FrameBlend, disposal: FrameDisposal) {
        let disposal = effectiveDisposal(disposal)
        isFirstFrame = false
        // Locals only inside the closure below: it holds exclusive access to `canvas`.
        let bytesPerPixel = bytesPerPixel, disposing = pending
        let regionRowBytes = region.width * bytesPerPixel
        let canvasRowBytes = width * bytesPerPixel
        let wide = bytesPerPixel == 8
        let savesRegion = disposal == .previous
        var savedRows = [UInt8]()
        if savesRegion { savedRows.reserveCapacity(regionRowBytes * region.height) }
        canvas.withUnsafeMutableBufferPointer { canvasBuffer in
            guard let base = canvasBuffer.baseAddress else { return }
            @inline(__always) func row(_ y: Int) -> UnsafeMutablePointer<UInt8> { base + y * canvasRowBytes + region.x * bytesPerPixel }
            switch disposing {
            case .keep:
                break
            case .clear(let old):
                for y in old.y..<(old.y + old.height) {
                    (base + y * canvasRowBytes + old.x * bytesPerPixel).update(repeating: 0, count: old.width * bytesPerPixel)
                }
            case .restore(let old, let rows):
                rows.withUnsafeBufferPointer { stored in
                    guard let from = stored.baseAddress else { return }
                    let oldRowBytes = old.width * bytesPerPixel
                    for line in 0..<old.height {
                        (base + (old.y + line) * canvasRowBytes + old.x * bytesPerPixel).update(from: from + line * oldRowBytes, count: oldRowBytes)
                    }
                }
            }
            if savesRegion {
                for y in region.y..<(region.y + region.height) {
                    savedRows.append(contentsOf: UnsafeBufferPointer(start: row(y), count: regionRowBytes))
                }
            }
            pixels.withUnsafeBufferPointer { source in
                guard let from = source.baseAddress, source.count >= regionRowBytes * region.height else { return }
                for line in 0..<region.height {
                    let target = row(region.y + line), sourceRow = from + line * regionRowBytes
                    switch blend {
                    case .source: target.update(from: sourceRow, count: regionRowBytes)
                    case .over where wide: AlphaOver.blendRow16(sourceRow, over: target, count: region.width)
                    case .over: AlphaOver.blendRow8(sourceRow, over: target, count: region.width)
                    }
                }
            }
        }
        switch disposal {
        case .none: pending = .keep
        case .background: pending = .clear(region)
        case .previous: pending = .restore(region, savedRows)
        }
    }
}
