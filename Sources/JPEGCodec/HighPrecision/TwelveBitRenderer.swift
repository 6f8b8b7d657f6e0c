/// Draws 12-bit JPEG pictures (gray16 / rgb16 holding 12-bit values) from stored raw
/// coefficients: each changed iMCU row is transformed (``TwelveBitInverseDCT``) into whole-image
/// 16-bit sample planes, then every output row that reads those samples is upsampled
/// (``WideRowUpsampler``) and colour-converted (``WideColorConverter``) again.
///
/// The 12-bit path is a parallel one beside the 8-bit renderers: sequential and progressive
/// files both keep every coefficient (``CoefficientStore`` raw storage) and draw through here,
/// so previews show the iMCU rows decoded so far, redrawn only where they changed. Progressive
/// files are drawn for a ``ProgressivePreview``, which says which rows changed and how each block
/// row is smoothed (``BlockSmoothing``, the same predictions as the 8-bit path, stored raw in a
/// copy of the block for the 64-bit IDCT to dequantize, as libjpeg's 12-bit build does).
final class TwelveBitRenderer {
    private let layout: FrameLayout
    private let converter: WideColorConverter
    private let planes: [UnsafeMutablePointer<UInt16>]
    private let planeStrides: [Int]
    /// Per component 64 quantizers (natural order, full 16 bits), latched at its first scan.
    private let quantizers: UnsafeMutablePointer<Int32>
    private let workspace: UnsafeMutablePointer<Int64>
    /// A block's raw coefficients with the smoothing's predictions, the IDCT's input.
    private let smoothedBlock: UnsafeMutablePointer<Int16>
    private let scratch: [UnsafeMutablePointer<UInt16>]
    private let sums: UnsafeMutablePointer<UInt16>
    private let rowPointers: UnsafeMutablePointer<UnsafePointer<UInt16>>
    private let outputStride: Int
    /// Output rows `0 ..< writtenRows` hold drawn pixels.
    private(set) var writtenRows = 0
    /// Progressive previews: iMCU rows marked since the last picture.
    private var markedIMCURows: Range<Int>?

    /// Bytes of sample planes `layout` needs, nil on overflow (checked against the limits first).
    static func planeBytes(for layout: FrameLayout) -> Int? {
        var total = 0
        for component in layout.components {
            let (width, o1) = component.blocksPerLine.multipliedReportingOverflow(by: component.blockSize)
            let (height, o2) = component.blockRows.multipliedReportingOverflow(by: component.blockSize)
            let (samples, o3) = width.multipliedReportingOverflow(by: height)
            let (sum, o4) = total.addingReportingOverflow(samples &* 2)
            guard !o1, !o2, !o3, !o4, samples < Int.max / 2 else { return nil }
            total = sum
        }
        return total
    }

    /// Sets up planes for `layout` with `conversion` (gray, YCbCr → RGB or RGB); output rows
    /// (16-bit samples) are `outputStride` bytes apart, the natural row size or the caller's
    /// `bytesPerRow` in ``JPEGDecoder/decode(_:into:bytesPerRow:)``.
    init(layout: FrameLayout, conversion: ColorConversion, outputStride: Int) {
        self.layout = layout
        converter = WideColorConverter(conversion: conversion, maxSample: Int(TwelveBitInverseDCT.maxSample))
        var planes: [UnsafeMutablePointer<UInt16>] = [], strides: [Int] = [], scratch: [UnsafeMutablePointer<UInt16>] = []
        for component in layout.components {
            let stride = component.blocksPerLine * component.blockSize
            let count = stride * component.blockRows * component.blockSize
            // A block with no coefficients draws mid-gray (2048), as do planes no scan has reached.
            let plane = UnsafeMutablePointer<UInt16>.allocate(capacity: max(count, 1))
            plane.initialize(repeating: 2048, count: max(count, 1))
            planes.append(plane)
            strides.append(stride)
            let width = max(layout.outputWidth, 2 * component.downsampledWidth) + 16
            let row = UnsafeMutablePointer<UInt16>.allocate(capacity: width)
            row.initialize(repeating: 0, count: width)
            scratch.append(row)
        }
        self.planes = planes
        planeStrides = strides
        self.scratch = scratch
        let sumsCount = (layout.components.map(\.downsampledWidth).max() ?? 0) + 16
        sums = .allocate(capacity: sumsCount)
        sums.initialize(repeating: 0, count: sumsCount)
        quantizers = .allocate(capacity: 64 * layout.components.count)
        quantizers.initialize(repeating: 0, count: 64 * layout.components.count)
        workspace = .allocate(capacity: 64)
        workspace.initialize(repeating: 0, count: 64)
        smoothedBlock = .allocate(capacity: 64)
        smoothedBlock.initialize(repeating: 0, count: 64)
        rowPointers = .allocate(capacity: layout.components.count)
        rowPointers.initialize(repeating: UnsafePointer(scratch[0]), count: layout.components.count)
        self.outputStride = outputStride
    }

    deinit {
        planes.forEach { $0.deallocate() }
        scratch.forEach { $0.deallocate() }
        sums.deallocate()
        quantizers.deallocate()
        workspace.deallocate()
        smoothedBlock.deallocate()
        rowPointers.deallocate()
    }

    /// Latches component `component`'s quantization table (natural order), all 16 bits of it:
    /// libjpeg's 12-bit build multiplies in `long`.
    func setQuantization(component: Int, table: [UInt16]) {
        for i in 0..<64 { quantizers[component * 64 + i] = Int32(table[i]) }
    }

    /// Progressive previews: block rows `blockRows` of component `component` must be drawn again.
    func markDirty(component: Int, blockRows: Range<Int>) {
        guard !blockRows.isEmpty else { return }
        let v = max(layout.components[component].verticalSampling, 1)
        let rows = (blockRows.lowerBound / v)..<((blockRows.upperBound - 1) / v + 1)
        markedIMCURows = markedIMCURows.map { min($0.lowerBound, rows.lowerBound)..<max($0.upperBound, rows.upperBound) } ?? rows
    }

    /// Progressive previews: draws the iMCU rows marked since the last call, each block row of
    /// component c smoothed as `smoothing(c, row)` says; returns the rows drawn from the top.
    func renderMarked(windows: UnsafePointer<CoefficientWindow>, smoothing: (Int, Int) -> RowSmoothing,
                      into output: UnsafeMutablePointer<UInt8>) -> Int {
        if let rows = markedIMCURows {
            markedIMCURows = nil
            render(iMCURows: rows.clamped(to: 0..<layout.mcuRows), windows: windows, smoothing: smoothing, into: output)
        }
        return writtenRows
    }

    /// Transforms iMCU rows `rows` of every component from `windows` (raw coefficients) and
    /// redraws every output row that reads them into `output` (the picture); rows between the
    /// last drawn one and these are drawn too, so drawn rows always start at the top. Block rows
    /// are smoothed as `smoothing` says (progressive files), or not at all.
    func render(iMCURows rows: Range<Int>, windows: UnsafePointer<CoefficientWindow>,
                smoothing: (Int, Int) -> RowSmoothing = { _, _ in .uniform(nil) }, into output: UnsafeMutablePointer<UInt8>) {
        var outputRows: Range<Int>?
        for (c, component) in layout.components.enumerated() {
            let size = component.blockSize, stride = planeStrides[c]
            let blockRows = (rows.lowerBound * component.verticalSampling)..<min(rows.upperBound * component.verticalSampling, component.heightInBlocks)
            for blockRow in blockRows {
                let destination = planes[c] + blockRow * size * stride
                let rowSmoothing = smoothing(c, blockRow)
                if rowSmoothing.reached != nil || rowSmoothing.unreached != nil {
                    drawSmoothed(component: c, row: blockRow, window: windows[c], smoothing: rowSmoothing, into: destination)
                    continue
                }
                for column in 0..<component.widthInBlocks {
                    TwelveBitInverseDCT.transform(UnsafePointer(windows[c].rawBlock(row: blockRow, column: column)),
                                                  quantizers: quantizers + c * 64, size: size, workspace: workspace,
                                                  output: destination + column * size, stride: stride)
                }
            }
            guard !blockRows.isEmpty else { continue }
            let samples = (blockRows.lowerBound * size)..<min(blockRows.upperBound * size, component.downsampledHeight)
            let reached = ComponentRowUpsampler.outputRows(reading: samples, of: component, outputHeight: layout.outputHeight)
            outputRows = outputRows.map { min($0.lowerBound, reached.lowerBound)..<max($0.upperBound, reached.upperBound) } ?? reached
        }
        guard let changed = outputRows, !changed.isEmpty else { return }
        let drawn = min(changed.lowerBound, writtenRows)..<changed.upperBound
        for y in drawn { drawRow(y, into: output + y * outputStride) }
        writtenRows = max(writtenRows, drawn.upperBound)
    }

    /// Transforms block row `row` of component `c` with its smoothing: blocks below
    /// `smoothing.splitColumn` use `smoothing.reached`, the rest `smoothing.unreached`; each block
    /// a prediction applies to is copied and the predictions stored in the copy. The 5×5 DC
    /// neighbourhood slides along the row as in ``RawBlockRowDrawer``.
    private func drawSmoothed(component c: Int, row: Int, window: CoefficientWindow, smoothing: RowSmoothing,
                              into destination: UnsafeMutablePointer<UInt16>) {
        let component = layout.components[c]
        let size = component.blockSize, stride = planeStrides[c], width = component.widthInBlocks
        let rows = NeighbourRows(row: row, component: component, iMCURows: layout.mcuRows)
        var neighbourhood = DCNeighbourhood(window, rows: rows, column: 0, width: width)
        for column in 0..<width {
            if column > 0 { neighbourhood.slide(window, rows: rows, column: column, width: width) }
            let raw = UnsafePointer(window.rawBlock(row: row, column: column))
            var input = raw
            if let blockSmoothing = column < smoothing.splitColumn ? smoothing.reached : smoothing.unreached,
               blockSmoothing.predictsAny(raw) {
                smoothedBlock.update(from: raw, count: 64)
                blockSmoothing.apply(raw: raw, dc: neighbourhood, intoCopy: smoothedBlock)
                input = UnsafePointer(smoothedBlock)
            }
            TwelveBitInverseDCT.transform(input, quantizers: quantizers + c * 64, size: size, workspace: workspace,
                                          output: destination + column * size, stride: stride)
        }
    }

    private func drawRow(_ y: Int, into output: UnsafeMutablePointer<UInt8>) {
        for (c, component) in layout.components.enumerated() {
            let plane = planes[c], stride = planeStrides[c]
            rowPointers[c] = WideRowUpsampler.row(component, outputRow: y, outputWidth: layout.outputWidth,
                                                  scratch: scratch[c], sums: sums) { plane + $0 * stride }
        }
        converter.convert(rows: rowPointers, width: layout.outputWidth, into: output)
    }
}
