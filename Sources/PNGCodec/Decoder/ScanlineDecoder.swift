import ImageCore

/// The image-data stage: takes inflated IDAT bytes in pieces of any size, reassembles the
/// filtered rows, unfilters each one the moment its last byte arrives (PNG 9.2), expands it
/// to the canvas format and draws it (PNG 8.2 interlace, with Adam7 preview rectangles).
///
/// Buffers (all allocated once in `init`, freed in `deinit`; `R` = the widest pass's row bytes):
/// - `filteredRow`: 1 + R bytes, the filter-type byte then the filtered samples of a row that
///   arrived split across pieces. `filledBytes` of it are valid. Rows that arrive whole in one
///   piece are unfiltered straight from the piece and never copied here.
/// - `storedRows`: 2 × R bytes, the reconstructed current and previous rows of the pass
///   (`current` and `prior` point into it and swap after each row).
/// - `zeroRow`: max(R, width × 8) zero bytes, the "row above" of each pass's first row.
/// - `naturalRow`, `convertedRow`: one row of pixels in the natural / canvas format.
/// When the stored samples already are the canvas pixels and the image is not interlaced,
/// rows are unfiltered straight into the canvas, with the canvas row above as `prior`; so are
/// 8-bit RGB rows for an `rgba8` canvas (``RGBToRGBAUnfilter``), the row above read as RGBA.
/// `zeroRow` is long enough to stand for either kind of row.
final class ScanlineDecoder {
    let canvas: PixelCanvas
    private var schedule: ScanlineSchedule
    private let expander: RowExpander
    private let filterStride: Int
    private let unfiltersIntoCanvas: Bool
    private let expandsRGBIntoCanvas: Bool
    /// How two consecutive Paeth rows go into the canvas together (``PaethRowPair``); nil where
    /// rows go through the row buffers (Adam7, conversions) or pixels are not 3 or 4 bytes.
    private let paethPairLayout: PaethRowPair.Layout?
    private let isInterlaced: Bool

    private let maxRowBytes: Int
    private let filteredRow: UnsafeMutablePointer<UInt8>
    private var filledBytes = 0
    private let storedRows: UnsafeMutablePointer<UInt8>
    private var current: UnsafeMutablePointer<UInt8>
    private var prior: UnsafeMutablePointer<UInt8>
    private let zeroRow: UnsafeMutablePointer<UInt8>
    private let naturalRow: UnsafeMutablePointer<UInt8>
    private let convertedRow: UnsafeMutablePointer<UInt8>
    private let pixelRowBytes: Int

    /// Rows (of all passes) reconstructed so far.
    private(set) var rowsDecoded = 0
    /// Passes fully received (1 for a finished non-interlaced image).
    private(set) var completedPasses = 0
    /// Image rows holding the newest pass's data: the progress figure for callers. Within a pass,
    /// the bottom of the last row's preview rectangles; the image height once the pass is finished.
    private(set) var completedRows = 0
    /// Inflated bytes after the last row (ignored, as libpng does, but counted).
    private(set) var excessBytes = 0
    /// Filtered bytes the image needs in all.
    var expectedBytes: Int { schedule.totalFilteredBytes }

    /// Whether every row has been received.
    var isComplete: Bool { schedule.isComplete }

    /// Sets up the stage; nil if a size overflows.
    init?(header: IHDRChunk, layout: OutputLayout, palette: Palette?, key: TransparencyKey?) {
        guard let schedule = ScanlineSchedule(header: header),
              let canvas = PixelCanvas(width: header.width, height: header.height, format: layout.canvas,
                                       rowsInOrder: !header.isInterlaced) else { return nil }
        self.schedule = schedule
        self.canvas = canvas
        expander = RowExpander(header: header, layout: layout, palette: palette, key: key)
        filterStride = header.filterStride
        isInterlaced = header.isInterlaced
        unfiltersIntoCanvas = expander.isIdentity && !header.isInterlaced
        expandsRGBIntoCanvas = !header.isInterlaced && header.colorType == .rgb && header.bitDepth == 8
            && key == nil && layout.natural == .rgb8 && layout.canvas == .rgba8
        if expandsRGBIntoCanvas {
            paethPairLayout = .rgbToRGBA
        } else if unfiltersIntoCanvas && header.filterStride == 4 {
            paethPairLayout = .fourBytes
        } else if unfiltersIntoCanvas && header.filterStride == 3 {
            paethPairLayout = .threeBytes
        } else {
            paethPairLayout = nil
        }
        maxRowBytes = schedule.maxRowBytes
        // The widest pixel is 8 bytes (rgba16); canvas rows fit in width × 8.
        pixelRowBytes = header.width * 8
        filteredRow = .allocate(capacity: maxRowBytes + 1)
        storedRows = .allocate(capacity: 2 * maxRowBytes)
        storedRows.initialize(repeating: 0, count: 2 * maxRowBytes)
        current = storedRows
        prior = storedRows + maxRowBytes
        zeroRow = .allocate(capacity: max(maxRowBytes, pixelRowBytes))
        zeroRow.initialize(repeating: 0, count: max(maxRowBytes, pixelRowBytes))
        naturalRow = .allocate(capacity: pixelRowBytes)
        convertedRow = .allocate(capacity: pixelRowBytes)
    }

    deinit {
        filteredRow.deallocate()
        storedRows.deallocate()
        zeroRow.deallocate()
        naturalRow.deallocate()
        convertedRow.deallocate()
    }

    /// The canvas as an `Image` (see ``PixelCanvas/image(orientation:iccProfile:rowsWritten:)``):
    /// a non-interlaced image has written its first `rowsDecoded` rows.
    func picture(orientation: Orientation, iccProfile: [UInt8]?) -> Image {
        canvas.image(orientation: orientation, iccProfile: iccProfile, rowsWritten: isInterlaced ? canvas.height : rowsDecoded)
    }

    /// Takes the next inflated bytes. Throws `invalidData` (offset unknown here: the caller
    /// adds it) for a filter type above 4.
    func consume(_ piece: UnsafeRawBufferPointer) throws {
        guard let start = piece.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        try canvas.withRows { rows in try consume(start, piece.count, rows) }
    }

    private func consume(_ start: UnsafePointer<UInt8>, _ count: Int, _ rows: CanvasRows) throws {
        var cursor = start
        var remaining = count
        while remaining > 0 {
            guard !schedule.isComplete else {
                excessBytes += remaining
                return
            }
            let needed = schedule.current.rowBytes + 1
            if filledBytes == 0 && remaining >= 2 * needed, let layout = paethPair(cursor, needed) {
                // Two whole Paeth rows: reconstructed together (see ``PaethRowPair``).
                finishPaethRows(cursor, needed, layout, rows)
                cursor += 2 * needed
                remaining -= 2 * needed
            } else if filledBytes == 0 && remaining >= needed {
                // The whole row is in this piece: unfilter it from there, no copy.
                try finishRow(cursor, rows)
                cursor += needed
                remaining -= needed
            } else {
                let take = min(needed - filledBytes, remaining)
                (filteredRow + filledBytes).update(from: cursor, count: take)
                filledBytes += take
                cursor += take
                remaining -= take
                if filledBytes == needed {
                    filledBytes = 0
                    try finishRow(UnsafePointer(filteredRow), rows)
                }
            }
        }
    }

    /// Unfilters, expands and draws one row whose filter byte is at `filtered[0]`.
    private func finishRow(_ filtered: UnsafePointer<UInt8>, _ rows: CanvasRows) throws {
        let pass = schedule.current
        let passRow = schedule.row
        guard let filter = FilterType(rawValue: filtered[0]) else {
            let which = isInterlaced ? "row \(passRow) of Adam7 pass \(schedule.passIndex + 1)" : "row \(passRow)"
            throw ImageDecodingError(.invalidData, at: nil,
                                     "PNG \(which) has filter type \(filtered[0]); only 0 ... 4 exist (PNG 9.2)")
        }
        let y = schedule.imageRow
        if unfiltersIntoCanvas {
            let above = passRow == 0 ? zeroRow : rows.row(y - 1)
            RowUnfilter.apply(filter, filtered: filtered + 1, prior: above, output: rows.row(y),
                              count: pass.rowBytes, stride: filterStride)
        } else if expandsRGBIntoCanvas {
            let above = passRow == 0 ? zeroRow : rows.row(y - 1)
            RGBToRGBAUnfilter.apply(filter, filtered: filtered + 1, prior: above, output: rows.row(y), columns: pass.columns)
        } else {
            let above = passRow == 0 ? zeroRow : prior
            RowUnfilter.apply(filter, filtered: filtered + 1, prior: above, output: current,
                              count: pass.rowBytes, stride: filterStride)
            draw(pass: pass, y: y, rows)
            swap(&current, &prior)
        }
        rowFinished(pass, y: y)
    }

    /// Moves the counters and the schedule on after row `y` of `pass`.
    private func rowFinished(_ pass: ScanlineSchedule.Pass, y: Int) {
        rowsDecoded += 1
        completedRows = min(y + pass.geometry.blockHeight, canvas.height)
        if schedule.advance() {
            // A finished pass has drawn over every row (its rectangles and earlier ones tile the image).
            completedPasses += 1
            completedRows = canvas.height
        }
    }

    /// The image's ``paethPairLayout`` if the row at `filtered` (`rowLength` bytes with its filter
    /// byte) and the next one are both Paeth rows of the same pass; else nil.
    private func paethPair(_ filtered: UnsafePointer<UInt8>, _ rowLength: Int) -> PaethRowPair.Layout? {
        guard let layout = paethPairLayout, filtered[0] == FilterType.paeth.rawValue,
              filtered[rowLength] == FilterType.paeth.rawValue, schedule.row + 1 < schedule.current.rows else { return nil }
        return layout
    }

    /// Reconstructs the two rows ``paethPair(_:_:)`` accepted, into the canvas.
    private func finishPaethRows(_ filtered: UnsafePointer<UInt8>, _ rowLength: Int, _ layout: PaethRowPair.Layout, _ rows: CanvasRows) {
        let pass = schedule.current
        let y = schedule.imageRow
        let above = schedule.row == 0 ? zeroRow : rows.row(y - 1)
        PaethRowPair.apply(layout, filtered0: filtered + 1, filtered1: filtered + rowLength + 1, prior: above,
                           output0: rows.row(y), output1: rows.row(y + 1), columns: pass.columns)
        rowFinished(pass, y: y)
        rowFinished(pass, y: y + 1)
    }

    /// Expands the reconstructed row in `current` and puts it on the canvas.
    private func draw(pass: ScanlineSchedule.Pass, y: Int, _ rows: CanvasRows) {
        if isInterlaced {
            let pixels = expander.expand(current, columns: pass.columns, naturalRow: naturalRow, output: convertedRow)
            rows.fillBlocks(pixels, columns: pass.columns, pass: pass.geometry, y: y)
        } else {
            // Let the last step write straight into the canvas row.
            let target = rows.row(y)
            let natural = expander.needsConversion ? naturalRow : target
            let pixels = expander.expand(current, columns: pass.columns, naturalRow: natural, output: target)
            rows.write(row: pixels, at: y)
        }
    }
}
