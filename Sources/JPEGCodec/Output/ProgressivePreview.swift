import Dispatch

/// Draws the pictures of a progressive JPEG from its coefficients as scans arrive, redrawing only
/// what changed since the last picture.
///
/// The picture is a function of the coefficients received so far, so a decoder that took a
/// preview after every piece of input shows exactly what a fresh decoder fed the same bytes at
/// once shows. What each block looks like depends on its coefficients, on the smoothing in force
/// for it (``RowSmoothing``: the scan under way uses the new smoothing only for blocks it has
/// reached) and, when smoothed, on the DC values of the 5×5 blocks around it. So when a scan
/// reaches more blocks, those blocks are marked for redrawing, and for DC scans their smoothed
/// neighbours two blocks around too.
///
/// Between scans every block is smoothed for the coefficients as they are, which is what
/// libjpeg-turbo's buffered-image mode shows at that scan boundary. Once no more data will come
/// (``endEarly(lastGoodMCU:)``), blocks are smoothed as libjpeg-turbo draws an incomplete file
/// (``SmoothingRegime/ended(lastGoodIMCURow:previous:)``).
///
/// Rows never marked are left at the flat gray of zero coefficients; output rows that read only
/// such rows stay black (zero), as before any data arrived.
///
/// 12-bit files are tracked the same way and drawn by their own renderer (``Drawing/twelveBit(_:)``).
final class ProgressivePreview {
    /// Who draws the pictures.
    enum Drawing {
        /// 8-bit samples, drawn here: through whole-image sample planes, or in one pass.
        case eightBit(RawBlockRowDrawer)
        /// 12-bit samples, drawn by the high-precision renderer, whole iMCU rows at a time.
        case twelveBit(TwelveBitRenderer)
    }

    /// Which smoothing the rows get.
    enum SmoothingRegime {
        /// More data may come: every row gets the smoothing for the coefficients as they are
        /// (the scan under way: only for the blocks it has reached).
        case live
        /// No more data will come (libjpeg's output pass): rows of iMCU rows up to
        /// `lastGoodIMCURow` (the last one the last scan decoded with data) get the smoothing for
        /// the coefficients as they are, later rows the one for the bits libjpeg's history has for
        /// them (`previous`, per component).
        case ended(lastGoodIMCURow: Int, previous: [BlockSmoothing?])
    }

    private let layout: FrameLayout
    private let conversion: ColorConversion
    /// Per component 64 quantizers (natural order), owned by the coefficient store.
    private let quantization: UnsafePointer<Int32>
    private let drawing: Drawing
    /// Per component, which coefficients the scans have sent and to what precision.
    private var bits: CoefficientBitHistory
    /// Per component, the smoothing for the coefficients as they are, and as they were before the
    /// scan under way (the same for components it does not code).
    private var smoothing: [BlockSmoothing?]
    private var smoothingBefore: [BlockSmoothing?]
    private var regime = SmoothingRegime.live
    /// The iMCU row of the last MCU the last finished scan began with data (libjpeg's
    /// `last_good_iMCU_row`).
    private var lastGoodIMCURow = 0

    /// The scan under way: its components (frame indices), MCU layout, and whether it codes DC.
    private var scanComponents: [Int] = []
    private var scanIsInterleaved = false
    private var scanCodesDC = false
    private var scanUnderWay = false
    /// MCUs of the scan under way decoded so far (``reach(decodedMCUs:)``).
    private var decodedMCUs = 0
    /// MCUs of the scan under way that have been accounted for in the marked rows (`markReached`).
    private var reachedMCUs = 0
    /// MCUs of the scan under way per iMCU row (≥ 1).
    private var mcusPerIMCURow = 1
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
    /// Threads the one-pass final picture may use (``DecodingOptions/maximumThreads``).
    private let threads: Int
    /// How many bands the last one-pass picture was drawn in (1 or 2; 0 before one).
    private(set) var onePassBands = 0
    /// Per component, bit k set once zig-zag coefficient k has been sent exactly (a scan with Al = 0).
    private var exactCoefficients: [UInt64]
    /// Two threads: the top of the final picture, drawn while the scan that makes every
    /// coefficient exact is still decoded (see ``EarlyFinalBand``).
    private var earlyBand: EarlyFinalBand?
    /// One-pass pictures finished from an early band, and the output rows the last one's worker
    /// had drawn when the file ended.
    private(set) var earlyBandPictures = 0
    private(set) var earlyBandRows = 0

    /// Sets up previews for `layout`, with the store's `quantization` (per component 64 `Int32`),
    /// drawing pictures whose rows are `outputStride` bytes apart; the final picture of a one-shot
    /// decode is drawn in `threads` bands at once (at most two). 12-bit pictures are drawn by
    /// `twelveBitRenderer`.
    init(layout: FrameLayout, conversion: ColorConversion, quantization: UnsafePointer<Int32>, outputStride: Int, threads: Int = 1,
         twelveBitRenderer: TwelveBitRenderer? = nil) {
        self.layout = layout
        self.threads = threads
        self.conversion = conversion
        self.outputStride = outputStride
        self.quantization = quantization
        drawing = twelveBitRenderer.map { .twelveBit($0) } ?? .eightBit(RawBlockRowDrawer(layout: layout, quantization: quantization))
        let count = layout.components.count
        bits = CoefficientBitHistory(componentCount: count)
        smoothing = Array(repeating: nil, count: count)
        smoothingBefore = smoothing
        markedRows = Array(repeating: 0, count: count)
        exactCoefficients = Array(repeating: 0, count: count)
    }

    /// Records which coefficients `scan` codes, to what precision, and the smoothing that follows
    /// from that (for the blocks the scan reaches; the others keep theirs until it does).
    func startScan(_ scan: ScanHeader) {
        markReached()
        scanComponents = scan.components.map(\.frameIndex)
        bits.startScan(components: scanComponents, spectralStart: scan.spectralStart, spectralEnd: scan.spectralEnd,
                       approximationLow: scan.approximationLow)
        smoothingBefore = smoothing
        smoothing = currentSmoothing()
        // Smoothing is on or off for all components at once: the first scan that gives every
        // component its DC turns it on for components this scan does not code, drawn uniformly.
        for c in 0..<layout.components.count where !scanComponents.contains(c) && smoothing[c] != smoothingBefore[c] {
            smoothingBefore[c] = smoothing[c]
            markWhole(component: c)
        }
        scanIsInterleaved = scan.isInterleaved
        scanCodesDC = scan.spectralStart == 0
        scanUnderWay = true
        decodedMCUs = 0
        reachedMCUs = 0
        if let first = scanComponents.first, !scanIsInterleaved {
            let component = layout.components[first]
            mcusPerIMCURow = max(component.widthInBlocks, 1) * max(component.verticalSampling, 1)
        } else {
            mcusPerIMCURow = max(layout.mcusPerRow, 1)
        }
        // A scan after the one the early band followed changes coefficients it drew.
        dropEarlyBand()
        if scan.approximationLow == 0 && scan.spectralStart <= scan.spectralEnd && scan.spectralEnd < 64 {
            let width = scan.spectralEnd - scan.spectralStart + 1
            let bits = (width == 64 ? UInt64.max : (UInt64(1) << UInt64(width)) - 1) << UInt64(scan.spectralStart)
            for c in scanComponents where c < exactCoefficients.count { exactCoefficients[c] |= bits }
        }
        if threads > 1, planes == nil, case .eightBit = drawing, layout.mcuRows >= 4,
           exactCoefficients.allSatisfy({ $0 == UInt64.max }) {
            earlyBand = EarlyFinalBand(layout: layout, conversion: conversion, quantization: quantization,
                                       outputStride: outputStride, smoothing: smoothing)
        }
    }

    /// The scan under way has decoded MCU row `mcuRow` (one block row of its component when not
    /// interleaved): with an early band, hands the worker the iMCU rows nothing can change now.
    func scanPassed(mcuRow: Int, windows: UnsafePointer<CoefficientWindow>, output: UnsafeMutablePointer<UInt8>) {
        guard let earlyBand, let first = scanComponents.first else { return }
        var passed = mcuRow + 1
        if !scanIsInterleaved {
            let component = layout.components[first]
            passed = mcuRow + 1 >= component.heightInBlocks ? layout.mcuRows : passed / max(component.verticalSampling, 1)
        }
        // Smoothing reads DC values two block rows below a block, upsampling one sample row:
        // stay two iMCU rows behind the scan until it is through.
        let end = passed >= layout.mcuRows ? layout.mcuRows : passed - 2
        earlyBand.advance(toIMCURow: end, windows: windows, output: output)
    }

    /// Whether a worker draws the final picture's top during the scan under way.
    var hasEarlyBand: Bool { earlyBand != nil }

    /// Stops the early band's worker and forgets the band (its rows get drawn over).
    func dropEarlyBand() {
        earlyBand?.cancel()
        earlyBand = nil
    }

    /// Per component, the smoothing for the coefficient bits as they are now.
    private func currentSmoothing() -> [BlockSmoothing?] {
        let applies = bits.smoothingApplies(quantization: quantization)
        return (0..<layout.components.count).map { c in
            applies ? BlockSmoothing(bits: bits.current(c), quantization: quantization + c * 64) : nil
        }
    }

    /// The scan under way has decoded `decodedMCUs` MCUs. Only noted: this runs after every piece
    /// fed (a byte at a time, perhaps), and the blocks that changed are marked when the marks are
    /// read (`markReached`), which marks the same blocks as marking after each piece would.
    func reach(decodedMCUs: Int) {
        if scanUnderWay && decodedMCUs > self.decodedMCUs { self.decodedMCUs = decodedMCUs }
    }

    /// Marks the blocks the scan under way decoded since they were last marked.
    private func markReached() {
        guard scanUnderWay, decodedMCUs > reachedMCUs else { return }
        for c in scanComponents {
            let before = reach(of: c, after: reachedMCUs), after = reach(of: c, after: decodedMCUs)
            let width = layout.components[c].widthInBlocks
            // A new DC value changes the smoothing of the 24 blocks around it, where they are smoothed
            // (blocks not reached yet read it with the smoothing they had before the scan).
            let reach = scanCodesDC && (smoothing[c] != nil || smoothingBefore[c] != nil) ? 2 : 0
            let above = reach, aside = reach, below = reach
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

    /// The scan under way is complete (`mcuCount` MCUs; `lastGoodMCU` is the last it began with
    /// data, see ``ScanDecoder/lastGoodMCU``): every block has its new smoothing.
    func finishScan(mcuCount: Int, lastGoodMCU: Int) {
        reach(decodedMCUs: mcuCount)
        markReached()
        lastGoodIMCURow = iMCURow(ofMCU: lastGoodMCU)
        scanUnderWay = false
        smoothingBefore = smoothing
        anyScanFinished = true
    }

    /// The last finished scan, decoded on another thread after ``finishScan(mcuCount:lastGoodMCU:)``
    /// was told it had every MCU's data, turned out to have data up to iMCU row `row` only.
    func setLastGood(iMCURow row: Int) {
        lastGoodIMCURow = row
    }

    /// No more data will come (EOI, the end of the input, or an error): from now on rows are
    /// smoothed as libjpeg-turbo smooths an incomplete file (``SmoothingRegime/ended(lastGoodIMCURow:previous:)``).
    /// `lastGoodMCU` is the scan under way's last MCU begun with data, if a scan is under way.
    /// Returns whether that changes the picture: only when the last scan was cut short (by the end
    /// of the data or damage) or is still under way.
    func endEarly(lastGoodMCU: Int? = nil) -> Bool {
        if case .ended = regime { return false }
        markReached()
        let wasUnderWay = scanUnderWay
        if scanUnderWay { lastGoodIMCURow = iMCURow(ofMCU: lastGoodMCU ?? 0) }
        scanUnderWay = false
        smoothingBefore = smoothing
        let applies = bits.smoothingApplies(quantization: quantization)
        let previous = (0..<layout.components.count).map { c in
            applies ? BlockSmoothing(bits: bits.previous(c), quantization: quantization + c * 64) : nil
        }
        regime = .ended(lastGoodIMCURow: lastGoodIMCURow, previous: previous)
        guard wasUnderWay || (lastGoodIMCURow < layout.mcuRows - 1 && previous != smoothing) else { return false }
        for c in 0..<layout.components.count { markWhole(component: c) }
        return true
    }

    /// The iMCU row of MCU `mcu` of the scan under way (or the last one).
    private func iMCURow(ofMCU mcu: Int) -> Int {
        guard let first = scanComponents.first else { return 0 }
        let mcu = max(mcu, 0)
        if scanIsInterleaved { return mcu / max(layout.mcusPerRow, 1) }
        let component = layout.components[first]
        return mcu / max(component.widthInBlocks, 1) / max(component.verticalSampling, 1)
    }

    /// Output rows that hold their final pixels for the scan under way (all once a scan is complete).
    var completedRows: Int {
        guard scanUnderWay else { return anyScanFinished ? layout.outputHeight : 0 }
        return min(decodedMCUs / mcusPerIMCURow * layout.outputRowsPerIMCU, layout.outputHeight)
    }

    /// Draws what changed into `output` (the picture) from `windows` (indexed by component);
    /// returns how many rows from the top hold pixels (written or zeroed). `final` says no more
    /// data will come: the first picture is then drawn in one pass through small sample rings
    /// rather than whole-image planes, which a one-shot decode does not need.
    func render(windows: UnsafePointer<CoefficientWindow>, into output: UnsafeMutablePointer<UInt8>, final: Bool) -> Int {
        markReached()
        let drawer: RawBlockRowDrawer
        switch drawing {
        case .twelveBit(let renderer):
            needsDrawing = false
            return renderer.renderMarked(windows: windows, smoothing: { self.rowSmoothing(component: $0, row: $1) }, into: output)
        case .eightBit(let eightBitDrawer):
            drawer = eightBitDrawer
        }
        let onePass = planes == nil && final && !scanUnderWay
        // The worker must not write while a picture mid-file is drawn and handed out.
        if !onePass || !needsDrawing { dropEarlyBand() }
        guard needsDrawing else { return planes?.initializedRows ?? 0 }
        needsDrawing = false
        if onePass { return renderInOnePass(windows: windows, drawer: drawer, into: output) }
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
    /// stay black: the caller zeroes them); returns the rows written. With two threads the rows
    /// are split at an iMCU row boundary into two bands drawn at once, each through its own rings
    /// and drawer; a band's pixels are a function of the coefficients alone, so they are the one
    /// thread's.
    private func renderInOnePass(windows: UnsafePointer<CoefficientWindow>, drawer: RawBlockRowDrawer,
                                 into output: UnsafeMutablePointer<UInt8>) -> Int {
        var rows = 0
        for (c, component) in layout.components.enumerated() where markedRows[c] > 0 {
            let samples = 0..<min(markedRows[c] * component.blockSize, component.downsampledHeight)
            rows = max(rows, ComponentRowUpsampler.outputRows(reading: samples, of: component, outputHeight: layout.outputHeight).upperBound)
        }
        // Below 4 iMCU rows a second thread costs more than it saves.
        let iMCURows = (rows + layout.outputRowsPerIMCU - 1) / max(layout.outputRowsPerIMCU, 1)
        if let earlyBand {
            self.earlyBand = nil
            // The band's worker draws every row with the smoothing in force when it started, so
            // it may finish the picture only when no row gets another one: rows past the last
            // one the scan decoded with data are smoothed as before it
            // (``SmoothingRegime/ended(lastGoodIMCURow:previous:)``). Otherwise its rows are
            // drawn over. (Until 2026-11-28 it finished whenever it had drawn no such row yet,
            // and then drew them with the wrong smoothing: found by the fuzz target's
            // one-thread/two-thread comparison, a file cut by a second SOF after a damaged scan.)
            if rowsKeepTheBandsSmoothing {
                return finishEarlyBand(earlyBand, rows: rows, drawer: drawer, windows: windows, into: output)
            }
            earlyBand.cancel()
        }
        guard threads > 1, iMCURows >= 4 else {
            onePassBands = 1
            return drawBand(firstIMCURow: 0, rows: 0..<rows, drawer: drawer, windows: windows, into: output)
        }
        // The lower band starts with the last output row of the iMCU row above it, the first row
        // that needs its samples (``BlockRowRenderer/beginPass(firstIMCURow:)``).
        let middle = iMCURows / 2
        let split = middle * layout.outputRowsPerIMCU - 1
        let ends = UnsafeMutablePointer<Int>.allocate(capacity: 2)
        ends.initialize(repeating: 0, count: 2)
        defer { ends.deallocate() }
        let bands = [
            FinalPictureBand(preview: self, drawer: drawer, firstIMCURow: 0, rows: 0..<split,
                             windows: windows, output: output, end: ends),
            FinalPictureBand(preview: self, drawer: RawBlockRowDrawer(layout: layout, quantization: quantization),
                             firstIMCURow: middle, rows: split..<rows, windows: windows, output: output, end: ends + 1),
        ]
        onePassBands = 2
        DispatchQueue.concurrentPerform(iterations: bands.count) { bands[$0].draw() }
        return ends[0] == split ? ends[1] : ends[0]
    }

    /// Whether every row is drawn with the smoothing for the coefficients as they are (what an
    /// early band uses): more data may come, the last scan had data to the last iMCU row, or the
    /// smoothing for the rows past its last good one is the same.
    private var rowsKeepTheBandsSmoothing: Bool {
        guard case .ended(let lastGood, let previous) = regime else { return true }
        return lastGood >= layout.mcuRows - 1 || previous == smoothing
    }

    /// The one-pass picture when the early band has drawn its top: the worker goes on down to an
    /// iMCU row boundary halfway through the rows left, and this thread draws the rest.
    private func finishEarlyBand(_ band: EarlyFinalBand, rows: Int, drawer: RawBlockRowDrawer,
                                 windows: UnsafePointer<CoefficientWindow>, into output: UnsafeMutablePointer<UInt8>) -> Int {
        let drawn = band.workerRows
        earlyBandRows = drawn
        earlyBandPictures += 1
        onePassBands = 2
        // The worker may be anywhere in the rows it was handed: the split lies below them. The
        // lower band starts with the last output row of the iMCU row above it.
        let perIMCU = max(layout.outputRowsPerIMCU, 1)
        let middle = max((drawn + rows) / 2 / perIMCU, band.handedIMCURows + 1)
        let split = middle * perIMCU - 1
        guard split < rows - perIMCU else {
            band.finish(rows: rows, windows: windows, output: output)
            return band.finishedRows()
        }
        band.finish(rows: split, windows: windows, output: output)
        let lowerEnd = drawBand(firstIMCURow: middle, rows: split..<rows, drawer: drawer, windows: windows, into: output)
        let upperEnd = band.finishedRows()
        return upperEnd == split ? lowerEnd : upperEnd
    }

    /// Draws output rows `rows` (ending at or before the marked rows' end), starting the rings at
    /// iMCU row `firstIMCURow` (whose first output row needing it is `rows.lowerBound`, or 0);
    /// returns the end of the rows written.
    fileprivate func drawBand(firstIMCURow: Int, rows: Range<Int>, drawer: RawBlockRowDrawer,
                              windows: UnsafePointer<CoefficientWindow>, into output: UnsafeMutablePointer<UInt8>) -> Int {
        let rings = BlockRowRenderer(layout: layout, conversion: conversion, outputStride: outputStride)
        rings.beginPass(firstIMCURow: firstIMCURow)
        for iMCURow in max(firstIMCURow - 1, 0)..<layout.mcuRows where rings.nextOutputRow < rows.upperBound {
            rings.push(iMCURow: iMCURow, windows: windows, drawer: drawer,
                       smoothing: { self.rowSmoothing(component: $0, row: $1) })
            rings.emitReadyRows(limit: rows.upperBound, into: output)
        }
        return rings.nextOutputRow
    }

    /// The smoothing for block row `row` of component `component`.
    private func rowSmoothing(component: Int, row: Int) -> RowSmoothing {
        if case .ended(let lastGood, let previous) = regime {
            let iMCURow = row / max(layout.components[component].verticalSampling, 1)
            return .uniform(iMCURow > lastGood ? previous[component] : smoothing[component])
        }
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

    private func markWhole(component: Int) {
        let layoutOfComponent = layout.components[component]
        mark(component: component, rows: 0..<layoutOfComponent.heightInBlocks, columns: 0..<layoutOfComponent.widthInBlocks)
    }

    private func mark(component: Int, rows: Range<Int>, columns: Range<Int>) {
        let clamped = rows.clamped(to: 0..<layout.components[component].heightInBlocks)
        guard !clamped.isEmpty else { return }
        markedRows[component] = max(markedRows[component], clamped.upperBound)
        planes?.markDirty(component: component, rows: clamped, columns: columns)
        if case .twelveBit(let renderer) = drawing { renderer.markDirty(component: component, blockRows: clamped) }
        needsDrawing = true
    }
}

/// One band of a final picture drawn on two threads (see `renderInOnePass`).
///
/// `@unchecked Sendable`: the bands only read the preview's state and the coefficients (nothing
/// changes them while the picture is drawn), each has its own drawer and rings, and they write
/// disjoint output rows and their own `end`. `concurrentPerform` returns after both, which
/// orders their writes before the caller's reads.
private struct FinalPictureBand: @unchecked Sendable {
    let preview: ProgressivePreview
    let drawer: RawBlockRowDrawer
    let firstIMCURow: Int
    let rows: Range<Int>
    let windows: UnsafePointer<CoefficientWindow>
    let output: UnsafeMutablePointer<UInt8>
    /// Receives the end of the rows written.
    let end: UnsafeMutablePointer<Int>

    func draw() {
        end.pointee = preview.drawBand(firstIMCURow: firstIMCURow, rows: rows, drawer: drawer, windows: windows, into: output)
    }
}
