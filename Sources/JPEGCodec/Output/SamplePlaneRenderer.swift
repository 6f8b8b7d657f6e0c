/// Keeps every component's samples of a progressive preview in a whole-image plane, so a
/// preview redraws only what changed: blocks are marked dirty per component and block row (a scan
/// of one component marks only that component's blocks, and a half-decoded row only the blocks
/// decoded since the last picture), their IDCT runs again, and then only the output pixels that
/// read those samples are colour-converted again.
///
/// Planes hold one byte per sample, `widthInBlocks · blockSize + 16` bytes per row (16 spare bytes
/// for kernels that run a little past the end) and `heightInBlocks · blockSize` rows. Example:
/// 3000×2000 4:2:0 at full scale: luma 375 blocks → 3016 bytes × 2000 rows, chroma 188 blocks →
/// 1520 bytes × 1000 rows. Samples start as 128 — what a block of zero coefficients draws — and
/// rows never marked keep that.
final class SamplePlaneRenderer {
    private let layout: FrameLayout
    private let conversion: ColorConversion
    private let componentCount: Int
    private let planes: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>>
    private let strides: UnsafeMutablePointer<Int>
    /// Per component, the blocks of each block row whose drawn samples are out of date.
    private let dirtyBlocks: [DirtyColumnSpans]
    /// Per component, the lowest and highest dirty block row + 1 (empty when none).
    private var dirtyBounds: [Range<Int>]
    /// Per output row, the pixels that read samples redrawn since they were last written.
    private let dirtyPixels: DirtyColumnSpans
    /// The rows upsampling and colour conversion work in.
    private let scratch: UpsampleScratch
    private let outputStride: Int
    /// Output rows `0 ..< initializedRows` hold pixels: written, or zeroed because nothing reads
    /// samples there yet (the picture is not zeroed up front; see ``render(drawer:windows:smoothing:into:)``).
    private(set) var initializedRows = 0

    /// Bytes the planes of `layout` take, nil if the size overflows.
    static func planeBytes(for layout: FrameLayout) -> Int? {
        var total = 0
        for component in layout.components {
            let (width, overflow1) = component.widthInBlocks.multipliedReportingOverflow(by: component.blockSize)
            let (rows, overflow2) = component.heightInBlocks.multipliedReportingOverflow(by: component.blockSize)
            let (bytes, overflow3) = (width + 16).multipliedReportingOverflow(by: rows)
            let (sum, overflow4) = total.addingReportingOverflow(bytes)
            guard !overflow1, !overflow2, !overflow3, !overflow4 else { return nil }
            total = sum
        }
        return total
    }

    /// Allocates the planes of `layout` (whose size ``planeBytes(for:)`` checked), samples 128;
    /// output rows are `outputStride` bytes apart.
    init(layout: FrameLayout, conversion: ColorConversion, outputStride: Int) {
        self.layout = layout
        self.conversion = conversion
        componentCount = layout.components.count
        self.outputStride = outputStride
        planes = .allocate(capacity: componentCount)
        strides = .allocate(capacity: componentCount)
        scratch = UpsampleScratch(layout: layout)
        for (c, component) in layout.components.enumerated() {
            let stride = component.widthInBlocks * component.blockSize + 16
            let count = stride * component.heightInBlocks * component.blockSize
            strides[c] = stride
            planes[c] = .allocate(capacity: count)
            planes[c].initialize(repeating: 128, count: count)
        }
        dirtyBlocks = layout.components.map { DirtyColumnSpans(rowCount: $0.heightInBlocks) }
        dirtyBounds = Array(repeating: 0..<0, count: componentCount)
        dirtyPixels = DirtyColumnSpans(rowCount: layout.outputHeight)
    }

    deinit {
        for c in 0..<componentCount { planes[c].deallocate() }
        planes.deallocate()
        strides.deallocate()
    }

    /// Marks blocks `columns` of block rows `rows` of component `component` (clamped to its
    /// blocks) for redrawing.
    func markDirty(component: Int, rows: Range<Int>, columns: Range<Int>) {
        let clamped = rows.clamped(to: 0..<layout.components[component].heightInBlocks)
        let clampedColumns = columns.clamped(to: 0..<layout.components[component].widthInBlocks)
        guard !clamped.isEmpty, !clampedColumns.isEmpty else { return }
        for row in clamped { dirtyBlocks[component].mark(row: row, columns: clampedColumns) }
        let bounds = dirtyBounds[component]
        dirtyBounds[component] = bounds.isEmpty
            ? clamped : min(bounds.lowerBound, clamped.lowerBound)..<max(bounds.upperBound, clamped.upperBound)
    }

    /// Redraws the dirty blocks with `drawer` from `windows` (indexed by component), smoothing
    /// each row as `smoothing(component, row)` says, then writes every output pixel that reads them
    /// into `output` (output height × width × bytes per pixel). Goes down iMCU row by iMCU row, so
    /// the samples an output row reads are still in the cache. A row written for the first time
    /// is written whole, and zeroes the rows it skips past ``initializedRows``.
    func render(drawer: RawBlockRowDrawer, windows: UnsafePointer<CoefficientWindow>,
                smoothing: (Int, Int) -> RowSmoothing, into output: UnsafeMutablePointer<UInt8>) {
        var firstIMCU = layout.mcuRows, endIMCU = 0
        for c in 0..<componentCount where !dirtyBounds[c].isEmpty {
            let v = layout.components[c].verticalSampling
            firstIMCU = min(firstIMCU, dirtyBounds[c].lowerBound / v)
            endIMCU = max(endIMCU, (dirtyBounds[c].upperBound - 1) / v + 1)
        }
        guard firstIMCU < endIMCU else { return }
        // Output rows below `composed` are written; iMCU row k completes every output row but its
        // last, which the vertical triangle filters read together with row k + 1.
        var composed = max(firstIMCU * layout.outputRowsPerIMCU - 1, 0)
        for iMCURow in firstIMCU..<endIMCU {
            for c in 0..<componentCount where !dirtyBounds[c].isEmpty {
                let component = layout.components[c]
                let v = component.verticalSampling, size = component.blockSize
                for row in (iMCURow * v)..<min((iMCURow + 1) * v, component.heightInBlocks) {
                    guard let columns = dirtyBlocks[c].take(row: row) else { continue }
                    drawer.draw(component: c, row: row, columns: columns, window: windows[c],
                                smoothing: smoothing(c, row), into: planes[c] + row * size * strides[c], stride: strides[c])
                    let samples = (row * size)..<min((row + 1) * size, component.downsampledHeight)
                    let sampleColumns = (columns.lowerBound * size)..<min(columns.upperBound * size, component.downsampledWidth)
                    let pixels = ComponentRowUpsampler.outputColumns(reading: sampleColumns, of: component, outputWidth: layout.outputWidth)
                    for y in ComponentRowUpsampler.outputRows(reading: samples, of: component, outputHeight: layout.outputHeight) {
                        dirtyPixels.mark(row: y, columns: pixels)
                    }
                }
            }
            let ready = iMCURow == endIMCU - 1 ? layout.outputHeight : min((iMCURow + 1) * layout.outputRowsPerIMCU - 1, layout.outputHeight)
            while composed < ready {
                if var pixels = dirtyPixels.take(row: composed) {
                    if composed >= initializedRows {
                        (output + initializedRows * outputStride).update(repeating: 0, count: (composed - initializedRows) * outputStride)
                        pixels = 0..<layout.outputWidth
                        initializedRows = composed + 1
                    }
                    composeRow(composed, pixels: pixels, into: output)
                }
                composed += 1
            }
        }
        for c in 0..<componentCount { dirtyBounds[c] = 0..<0 }
    }

    /// Upsamples every component for output row `y` and converts pixels `pixels` of it into the
    /// picture.
    private func composeRow(_ y: Int, pixels: Range<Int>, into output: UnsafeMutablePointer<UInt8>) {
        let width = layout.outputWidth
        for c in 0..<componentCount {
            let plane = planes[c], stride = strides[c]
            scratch.rowPointers[c] = ComponentRowUpsampler.row(layout.components[c], outputRow: y, outputWidth: width, pixels: pixels,
                                                               scratch: scratch.upsampledRows[c], sums: scratch.columnSums) { plane + $0 * stride } + pixels.lowerBound
        }
        RowColorConverter.convert(conversion, rows: UnsafePointer(scratch.rowPointers),
                                  into: output + y * outputStride + pixels.lowerBound * conversion.bytesPerPixel, width: pixels.count)
    }
}
