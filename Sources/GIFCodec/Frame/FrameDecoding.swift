import ImageCore

/// One frame being decoded: turns rows of colour indices into its own RGBA pixels
/// (``regionImage()``) and draws them onto the canvas.
///
/// The frame's rectangle is clipped to the canvas (browsers never grow the canvas): only the
/// right and bottom can stick out, as offsets are unsigned. Rows and columns outside are decoded
/// and dropped.
///
/// Drawing: GIF transparency is all or nothing, so a frame is drawn "over" the canvas by writing
/// its non-transparent pixels. The first frame is drawn onto a transparent canvas, where "over"
/// and "replace" agree; it is written with "replace" so that an interlaced first frame can fill
/// the rows below each decoded row for the preview (see ``InterlaceSchedule``) and later passes
/// overwrite that fill exactly.
final class FrameDecoding {
    /// Position in the animation, from 0.
    let index: Int
    /// The frame's rectangle clipped to the canvas.
    let region: FrameRegion
    let control: GIFGraphicControl
    private let colors: ColorTable
    private var schedule: InterlaceSchedule
    /// The frame's own pixels, `region.width × region.height` RGBA, transparent where not yet decoded.
    private var regionPixels: [UInt8]
    /// Rows handed over by the LZW decoder, in file order.
    private(set) var rowsDecoded = 0
    /// Rows that changed the canvas.
    private(set) var visibleRowsWritten = 0

    init(index: Int, descriptor: GIFImageDescriptor, canvasWidth: Int, canvasHeight: Int,
         control: GIFGraphicControl, colors: ColorTable) {
        self.index = index
        let x = min(descriptor.left, canvasWidth), y = min(descriptor.top, canvasHeight)
        region = FrameRegion(x: x, y: y, width: min(descriptor.width, canvasWidth - x),
                             height: min(descriptor.height, canvasHeight - y))
        self.control = control
        self.colors = colors
        schedule = InterlaceSchedule(height: descriptor.height, isInterlaced: descriptor.isInterlaced)
        // At most the canvas size, which the limits allowed.
        regionPixels = [UInt8](repeating: 0, count: region.width * region.height * 4)
    }

    /// Interlace passes finished (0–4), or 0/1 for a sequential frame.
    var completedPasses: Int { schedule.completedPasses }

    /// Takes the next row of indices in file order and draws it: `count` indices, the frame's width
    /// except for a last row cut short by the end of the data (its other pixels stay as they were).
    func takeRow(_ indices: UnsafePointer<UInt8>, count: Int, canvas: RGBACanvas) {
        let row = schedule.row, fill = schedule.fill
        schedule.advance()
        rowsDecoded += 1
        guard row < region.height, region.width > 0, count > 0 else { return }
        let width = min(region.width, count), rowBytes = region.width * 4
        regionPixels.withUnsafeMutableBytes { regionBuffer in
            guard let regionBase = regionBuffer.baseAddress else { return }
            let source = regionBase + row * rowBytes
            colors.entries.withUnsafeBufferPointer { table in
                for x in 0..<width {
                    source.storeBytes(of: table[Int(indices[x])], toByteOffset: 4 * x, as: UInt32.self)
                }
            }
            canvas.withPixels { canvasBase in
                let canvasRowBytes = canvas.width * 4
                let left = region.x * 4
                if index == 0 {
                    // Replace, and fill the rows this one stands for until finer passes arrive.
                    for target in row..<min(row + fill, region.height) {
                        (canvasBase + (region.y + target) * canvasRowBytes + left).copyMemory(from: source, byteCount: 4 * width)
                    }
                } else {
                    let destination = canvasBase + (region.y + row) * canvasRowBytes + left
                    for x in 0..<width {
                        let pixel = source.load(fromByteOffset: 4 * x, as: UInt32.self)
                        if pixel != 0 { destination.storeBytes(of: pixel, toByteOffset: 4 * x, as: UInt32.self) }
                    }
                }
            }
        }
        visibleRowsWritten += 1
    }

    /// The frame's own pixels (transparent where no row arrived).
    func regionImage() -> Image {
        Image(width: region.width, height: region.height, format: .rgba8, pixels: regionPixels)
    }
}
