/// Draws the pictures of a progressive JPEG from its coefficients as scans arrive, redrawing only
/// what changed since the last picture.
///
/// The picture is a function of the coefficients received so far, so a decoder that took a
/// preview after every piece of input shows exactly what a fresh decoder fed the same bytes at
/// once shows. What each block looks like depends on its coefficients, on the smoothing in force
/// for it (``RowSmoothing``: the scan under way uses the new smoothing only for blocks it has
/// reached) and, when smoothed, on its neighbours' DC values. So when a scan reaches more blocks,
/// those blocks are marked for redrawing, and for DC scans their smoothed neighbours too.
///
/// Rows never marked are left at the flat gray of zero coefficients; output rows that read only
/// such rows stay black (zero), as before any data arrived.
final class ProgressivePreview {
    private let layout: FrameLayout
    private let conversion: ColorConversion
    /// Per component 64 quantizers (natural order), owned by the coefficient store.
    private let quantization: UnsafePointer<Int32>
    private let drawer: RawBlockRowDrawer
    /// Per component 64 entries (natural order), the Al of the last scan that coded each
    /// coefficient, -1 before any (libjpeg's coef_bits).
    private var coefficientBits: [Int]
    /// Per component, the smoothing for the coefficients as they are, and as they were before the
    /// scan under way (the same for components it does not code).
    private var smoothing: [BlockSmoothing?]
    private var smoothingBefore: [BlockSmoothing?]

    /// The scan under way: its components (frame indices), MCU layout, and whether it codes DC.
    private var scanComponents: [Int] = []
    private var scanIsInterleaved = false
    private var scanCodesDC = false
    private var scanUnderWay = false
    /// MCUs of the scan under way that have been accounted for in the marked rows.
    private var reachedMCUs = 0
    /// Whether a scan has finished: then every output row has had data.
    private var anyScanFinished = false
    /// Per component, block rows `0 ..< markedRows[c]` have been marked for drawing at some time;
    /// the rest hold zero coefficients and the flat gray they draw.
    private var markedRows: [Int]
    /// Rows were marked since the last picture.
    private var needsDrawing = false
    /// Created by the first picture taken before the last.
    private var planes: SamplePlaneRenderer?

    /// Bytes from one output row to the next in the pictures drawn.
    private let outputStride: Int

    /// Sets up previews for `layout`, with the store's `quantization` (per component 64 `Int32`),
    /// drawing pictures whose rows are `outputStride` bytes apart.
    init(layout: FrameLayout, conversion: ColorConversion, quantization: UnsafePointer<Int32>, outputStride: Int) {
        self.layout = layout
        self.conversion = conversion
        self.outputStride = outputStride
        self.quantization = quantization
        drawer = RawBlockRowDrawer(layout: layout, quantization: quantization)
        let count = layout.components.count
        coefficientBits = Array(repeating: -1, count: count * 64)
        smoothing = Array(repeating: nil, count: count)
        smoothingBefore = smoothing
        markedRows = Array(repeating: 0, count: count)
    }

    /// Records which coefficients `scan` codes, to what precision, and the smoothing that follows
    /// from that (for the blocks the scan reaches; the others keep theirs until it does).
    func startScan(_ scan: ScanHeader) {
        for component in scan.components {
            for k in scan.spectralStart...scan.spectralEnd {
                coefficientBits[component.frameIndex * 64 + Int(ZigZag.pointer[k])] = scan.approximationLow
            }
        }
        smoothingBefore = smoothing
        smoothing = (0..<layout.components.count).map { c in
            BlockSmoothing(coefficientBits: coefficientBits[(c * 64)..<(c * 64 + 64)], quantization: quantization + c * 64)
        }
        scanComponents = scan.components.map(\.frameIndex)
        scanIsInterleaved = scan.isInterleaved
        scanCodesDC = scan.spectralStart == 0
        scanUnderWay = true
        reachedMCUs = 0
    }

    /// The scan under way has decoded `decodedMCUs` MCUs: marks the blocks that changed.
    func reach(decodedMCUs: Int) {
        guard scanUnderWay, decodedMCUs > reachedMCUs else { return }
        for c in scanComponents {
            let before = reach(of: c, after: reachedMCUs), after = reach(of: c, after: decodedMCUs)
            let width = layout.components[c].widthInBlocks
            // A new DC value changes the smoothing of the 8 blocks around it, where they are smoothed.
            // Blocks below the rows being decoded are not reached yet, so only the smoothing they
            // had before the scan can read it (none during the first DC scan, the common case).
            let smoothed = smoothing[c] != nil || smoothingBefore[c] != nil
            let above = scanCodesDC && smoothed ? 1 : 0, aside = above
            let below = scanCodesDC && smoothingBefore[c] != nil ? 1 : 0
            for row in before.fullRows..<after.rowsTouched {
                // Decoded now: what `after` reaches in this row and `before` did not.
                let start = row < before.fullRows + before.partialRows ? before.splitColumn : 0
                let end = row < after.fullRows ? width : min(after.splitColumn, width)
                guard start < end else { continue }
                mark(component: c, rows: (row - above)..<(row + 1 + below), columns: (start - aside)..<(end + aside))
            }
        }
        reachedMCUs = decodedMCUs
    }

    /// The scan under way is complete (`mcuCount` MCUs): every block has its new smoothing.
    func finishScan(mcuCount: Int) {
        reach(decodedMCUs: mcuCount)
        scanUnderWay = false
        smoothingBefore = smoothing
        anyScanFinished = true
    }

    /// No more data will come: the last picture draws every block with the smoothing for its
    /// coefficients as they finally are, as libjpeg draws an incomplete file. Returns whether
    /// that changes the picture: only a scan cut short (by an error inside it; at the end of the
    /// input a scan runs to its end on zeros) leaves blocks drawn with the smoothing before it.
    func endEarly() -> Bool {
        let changed = scanUnderWay ? scanComponents.filter { smoothing[$0] != smoothingBefore[$0] } : []
        scanUnderWay = false
        smoothingBefore = smoothing
        for c in changed {
            mark(component: c, rows: 0..<layout.components[c].heightInBlocks, columns: 0..<layout.components[c].widthInBlocks)
        }
        return !changed.isEmpty
    }

    /// Output rows that hold their final pixels for the scan under way (all once a scan is complete).
    var completedRows: Int {
        guard scanUnderWay, let first = scanComponents.first else { return anyScanFinished ? layout.outputHeight : 0 }
        let reached = reach(of: first, after: reachedMCUs)
        let iMCURows = scanIsInterleaved ? reached.fullRows / max(reached.partialRows, 1)
                                         : reached.fullRows / layout.components[first].verticalSampling
        return min(iMCURows * layout.outputRowsPerIMCU, layout.outputHeight)
    }

    /// Draws what changed into `output` (the picture) from `windows` (indexed by component);
    /// returns how many rows from the top hold pixels (written or zeroed). `final` says no more
    /// data will come: the first picture is then drawn in one pass through small sample rings
    /// rather than whole-image planes, which a one-shot decode does not need.
    func render(windows: UnsafePointer<CoefficientWindow>, into output: UnsafeMutablePointer<UInt8>, final: Bool) -> Int {
        guard needsDrawing else { return planes?.initializedRows ?? 0 }
        needsDrawing = false
        if planes == nil && final && !scanUnderWay { return renderInOnePass(windows: windows, into: output) }
        let renderer: SamplePlaneRenderer
        if let planes {
            renderer = planes
        } else {
            renderer = SamplePlaneRenderer(layout: layout, conversion: conversion, outputStride: outputStride)
            for (c, component) in layout.components.enumerated() {
                renderer.markDirty(component: c, rows: 0..<markedRows[c], columns: 0..<component.widthInBlocks)
            }
            planes = renderer
        }
        renderer.render(drawer: drawer, windows: windows, smoothing: { self.rowSmoothing(component: $0, row: $1) }, into: output)
        return renderer.initializedRows
    }

    /// Draws every output row that reads marked rows, top down through sample rings (the others
    /// stay black: the caller zeroes them); returns the rows written.
    private func renderInOnePass(windows: UnsafePointer<CoefficientWindow>, into output: UnsafeMutablePointer<UInt8>) -> Int {
        var rows = 0
        for (c, component) in layout.components.enumerated() where markedRows[c] > 0 {
            let samples = 0..<min(markedRows[c] * component.blockSize, component.downsampledHeight)
            rows = max(rows, ComponentRowUpsampler.outputRows(reading: samples, of: component, outputHeight: layout.outputHeight).upperBound)
        }
        let rings = BlockRowRenderer(layout: layout, conversion: conversion, outputStride: outputStride)
        rings.beginPass(firstIMCURow: 0)
        for iMCURow in 0..<layout.mcuRows where rings.nextOutputRow < rows {
            rings.push(iMCURow: iMCURow, windows: windows, drawer: drawer, smoothing: smoothing)
            rings.emitReadyRows(limit: rows, into: output)
        }
        return rings.nextOutputRow
    }

    /// The smoothing for block row `row` of component `component`.
    private func rowSmoothing(component: Int, row: Int) -> RowSmoothing {
        guard scanUnderWay, scanComponents.contains(component) else { return .uniform(smoothing[component]) }
        return reach(of: component, after: reachedMCUs).smoothing(row: row, reached: smoothing[component],
                                                                   unreached: smoothingBefore[component])
    }

    private func reach(of component: Int, after decodedMCUs: Int) -> ComponentReach {
        let layoutOfComponent = layout.components[component]
        return ComponentReach(decodedMCUs: decodedMCUs,
                              mcusPerRow: scanIsInterleaved ? layout.mcusPerRow : layoutOfComponent.widthInBlocks,
                              interleaved: scanIsInterleaved, component: layoutOfComponent)
    }

    private func mark(component: Int, rows: Range<Int>, columns: Range<Int>) {
        let clamped = rows.clamped(to: 0..<layout.components[component].heightInBlocks)
        guard !clamped.isEmpty else { return }
        markedRows[component] = max(markedRows[component], clamped.upperBound)
        planes?.markDirty(component: component, rows: clamped, columns: columns)
        needsDrawing = true
    }
}
