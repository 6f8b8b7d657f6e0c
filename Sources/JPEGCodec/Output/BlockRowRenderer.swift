/// Turns coefficient block rows into output pixel rows: IDCT of each iMCU row into per-component
/// sample rings, then upsampling and colour conversion of every output row whose inputs are ready.
///
/// This is the "render a block row" stage of sequential decoding: streaming (rows pushed in order
/// as the scan completes them) and multi-scan files (a range of iMCU rows re-rendered from stored
/// coefficients). Progressive files draw through ``ProgressivePreview`` instead.
///
/// Each component's ring holds 3 iMCU rows of samples: sample row r lives in slot r mod (3 · rows per
/// iMCU). Output row y needs, per component, the sample row it sits on and for the vertical
/// triangle filters the one above or below; pushing iMCU row k therefore completes every output
/// row of k − 1 and all of k but those that need k + 1 (the last one, for 2:1 vertical sampling).
///
/// With two threads (``TransformPipeline``) the IDCT of an iMCU row (``transform(iMCURow:windows:clearingBlocks:)``)
/// runs on the worker, and only then, on the caller's thread, ``didTransform(iMCURow:)`` makes its
/// rows count for ``emitReadyRows(limit:into:)``. `transform` touches nothing but that iMCU row's
/// ring rows, its coefficient blocks and `workspace`; every other state is the caller's thread's.
final class BlockRowRenderer {
    private let layout: FrameLayout
    private let conversion: ColorConversion
    private let componentCount: Int
    private let rings: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>>
    private let ringStrides: [Int]
    private let ringRowCounts: [Int]
    /// The caller's thread's upsampling rows (also for a pipeline job the caller runs itself).
    let scratch: UpsampleScratch
    private let workspace: UnsafeMutablePointer<Int32>
    /// Per component, sample rows [0, rowsAvailable) have been pushed (the ring keeps the last ones).
    private var rowsAvailable: [Int]

    /// Whether YCbCr chroma is stretched 2:1 across by a triangle filter (4:2:0, 4:2:2 at full
    /// size): rows are then upsampled and converted in one pass (``PairedYCbCrConverter``).
    private let pairsChroma: Bool

    /// Bytes from one output row to the next.
    private let outputStride: Int
    /// The next output row to emit.
    private(set) var nextOutputRow = 0

    /// Sets up rings of `ringIMCURows` iMCU rows (3 when one thread runs everything; a worker
    /// transforming ahead needs one more) for `layout`; blocks hold dequantized `Int16`
    /// coefficients. Output rows are `outputStride` bytes apart.
    init(layout: FrameLayout, conversion: ColorConversion, outputStride: Int, ringIMCURows: Int = 3) {
        self.layout = layout
        self.conversion = conversion
        self.outputStride = outputStride
        componentCount = layout.components.count
        rings = .allocate(capacity: componentCount)
        scratch = UpsampleScratch(layout: layout)
        // 128: the 16-bit IDCT entry widens some blocks into the second half.
        workspace = .allocate(capacity: 128)
        workspace.initialize(repeating: 0, count: 128)
        var strides: [Int] = [], counts: [Int] = []
        for (c, component) in layout.components.enumerated() {
            // 16 spare bytes let kernels run a little past the end of a row.
            let stride = component.blocksPerLine * component.blockSize + 16
            let rows = ringIMCURows * component.rowsPerIMCU
            strides.append(stride)
            counts.append(rows)
            rings[c] = .allocate(capacity: stride * rows)
            rings[c].initialize(repeating: 0, count: stride * rows)
        }
        ringStrides = strides
        ringRowCounts = counts
        pairsChroma = Self.chromaPairs(layout: layout, conversion: conversion)
        rowsAvailable = Array(repeating: 0, count: componentCount)
    }

    deinit {
        for c in 0..<componentCount { rings[c].deallocate() }
        rings.deallocate()
        workspace.deallocate()
    }

    /// Starts a pass that pushes iMCU rows from `firstIMCURow − 1` (as context) onwards and emits
    /// output rows from the first one that iMCU row `firstIMCURow` can change.
    func beginPass(firstIMCURow: Int) {
        let contextRow = max(firstIMCURow - 1, 0)
        for c in 0..<componentCount { rowsAvailable[c] = contextRow * layout.components[c].rowsPerIMCU }
        nextOutputRow = max(firstIMCURow * layout.outputRowsPerIMCU - 1, 0)
    }

    /// IDCTs iMCU row `row` of every component from `windows` (indexed by frame component) into the
    /// rings. With `clearingBlocks`, each block is zeroed after use (as far as its shape says it was
    /// written), ready for the entropy decoder to reuse the one-row window.
    func push(iMCURow row: Int, windows: UnsafePointer<CoefficientWindow>, clearingBlocks: Bool) {
        transform(iMCURow: row, windows: windows, clearingBlocks: clearingBlocks)
        didTransform(iMCURow: row)
    }

    /// The IDCT half of ``push(iMCURow:windows:clearingBlocks:)``: fills the ring rows of iMCU row
    /// `row` and nothing else, so a worker thread may run it (see the type's notes).
    func transform(iMCURow row: Int, windows: UnsafePointer<CoefficientWindow>, clearingBlocks: Bool) {
        for c in 0..<componentCount {
            let component = layout.components[c]
            let window = windows[c]
            let size = component.blockSize
            let stride = ringStrides[c]
            for blockRowInIMCU in 0..<component.verticalSampling {
                let blockRow = row * component.verticalSampling + blockRowInIMCU
                guard blockRow < component.heightInBlocks else { break }
                let sampleRow = blockRow * size
                let destination = rings[c] + (sampleRow % ringRowCounts[c]) * stride
                for column in 0..<component.widthInBlocks {
                    let out = destination + column * size
                    let mutableBlock = window.block(row: blockRow, column: column)
                    let shapeByte = window.shape(row: blockRow, column: column)
                    let shape = shapeByte.pointee
                    let block = UnsafePointer(mutableBlock)
                    // One-row sequential storage: zero the block after its IDCT, for the next row
                    // (the decoders widen a block's shape, never narrow it, so it is reset too).
                    defer { if clearingBlocks { Self.clear(mutableBlock, shape: shape); shapeByte.pointee = BlockShape.dcOnly } }
                    ShapedInverseDCT.transform(block, shape: shape, size: size, workspace: workspace, output: out, stride: stride)
                }
            }
        }
    }

    /// Makes the samples of iMCU row `row`, transformed by ``transform(iMCURow:windows:clearingBlocks:)``, count as pushed.
    func didTransform(iMCURow row: Int) {
        for c in 0..<componentCount {
            rowsAvailable[c] = (row + 1) * layout.components[c].rowsPerIMCU
        }
    }

    /// Draws iMCU row `row` of every component from raw progressive coefficients with `drawer`,
    /// each block row smoothed as `smoothing(component, blockRow)` says (a picture drawn in one
    /// pass, see ``ProgressivePreview``).
    func push(iMCURow row: Int, windows: UnsafePointer<CoefficientWindow>, drawer: RawBlockRowDrawer,
              smoothing: (Int, Int) -> RowSmoothing) {
        for c in 0..<componentCount {
            let component = layout.components[c]
            for blockRowInIMCU in 0..<component.verticalSampling {
                let blockRow = row * component.verticalSampling + blockRowInIMCU
                guard blockRow < component.heightInBlocks else { break }
                drawer.draw(component: c, row: blockRow, columns: 0..<component.widthInBlocks, window: windows[c],
                            smoothing: smoothing(c, blockRow), into: ringRow(c, blockRow * component.blockSize), stride: ringStrides[c])
            }
            rowsAvailable[c] = (row + 1) * component.rowsPerIMCU
        }
    }

    /// Zeroes the part of `block` that `shape` says may be non-zero.
    @inline(__always)
    private static func clear(_ block: UnsafeMutablePointer<Int16>, shape: UInt8) {
        switch shape {
        case BlockShape.dcOnly: block[0] = 0
        // Vector stores: a `memset` call per block would cost more than the stores.
        case BlockShape.topLeft4x4:
            for row in 0..<4 { UnsafeMutableRawPointer(block + row * 8).storeBytes(of: UInt64(0), as: UInt64.self) }
        case BlockShape.leftColumns:
            for row in 0..<8 { UnsafeMutableRawPointer(block + row * 8).storeBytes(of: UInt64(0), as: UInt64.self) }
        case BlockShape.topRows:
            for row in 0..<4 { UnsafeMutableRawPointer(block + row * 8).storeBytes(of: SIMD8<Int16>(), as: SIMD8<Int16>.self) }
        default:
            for row in 0..<8 { UnsafeMutableRawPointer(block + row * 8).storeBytes(of: SIMD8<Int16>(), as: SIMD8<Int16>.self) }
        }
    }

    /// Emits every output row below `limit` whose samples are all pushed into `output` (the
    /// picture, output height rows of `outputStride` bytes); returns how many.
    @discardableResult
    func emitReadyRows(limit: Int, into output: UnsafeMutablePointer<UInt8>) -> Int {
        let end = min(limit, layout.outputHeight)
        var emitted = 0
        while nextOutputRow < end && isReady(nextOutputRow) {
            emitRow(nextOutputRow, into: output + nextOutputRow * outputStride, scratch: scratch)
            nextOutputRow += 1
            emitted += 1
        }
        return emitted
    }

    /// Two threads: output rows `rows`, which another thread placed after `nextOutputRow`'s,
    /// are written; emitting goes on after them.
    func skipEmitted(_ rows: Range<Int>) {
        if rows.lowerBound == nextOutputRow { nextOutputRow = rows.upperBound }
    }

    /// Worker side of two threads: emits output rows `rows` (all ready once iMCU rows up to the one
    /// just transformed are) into `output`, `stride` bytes apart, with the worker's own `scratch`.
    /// Reads only ring rows and layout, so it runs beside the caller's ``emitReadyRows(limit:into:)``
    /// of other rows.
    func emitRows(_ rows: Range<Int>, into output: UnsafeMutablePointer<UInt8>, stride: Int, scratch: UpsampleScratch) {
        for y in rows { emitRow(y, into: output + (y - rows.lowerBound) * stride, scratch: scratch) }
    }

    /// The end of the run of output rows from `start` that are ready once the first
    /// `transformedIMCURows` iMCU rows are transformed (a pure function of the layout).
    func readyRowsEnd(from start: Int, transformedIMCURows: Int) -> Int {
        var y = start
        while y < layout.outputHeight && isReady(y, available: { transformedIMCURows * layout.components[$0].rowsPerIMCU }) {
            y += 1
        }
        return y
    }

    /// Whether all samples output row `y` needs have been pushed.
    private func isReady(_ y: Int) -> Bool {
        isReady(y, available: { rowsAvailable[$0] })
    }

    /// Whether output row `y` is ready when component c has sample rows [0, available(c)).
    @inline(__always)
    private func isReady(_ y: Int, available: (Int) -> Int) -> Bool {
        for c in 0..<componentCount {
            let component = layout.components[c]
            var needed: Int
            switch component.upsampling {
            case .fullSize, .h2v1Fancy: needed = y
            case .h1v2Fancy, .h2v2Fancy: needed = y / 2 + (y & 1)
            case .box(_, let vertical): needed = y / vertical
            }
            needed = min(needed, component.downsampledHeight - 1)
            if needed >= available(c) { return false }
        }
        return true
    }

    @inline(__always)
    private func ringRow(_ c: Int, _ row: Int) -> UnsafeMutablePointer<UInt8> {
        rings[c] + (row % ringRowCounts[c]) * ringStrides[c]
    }

    /// ``pairsChroma`` for `layout`.
    private static func chromaPairs(layout: FrameLayout, conversion: ColorConversion) -> Bool {
        let c = layout.components
        return conversion == .yCbCrToRGB && c.count == 3 && c[0].upsampling == .fullSize
            && (c[1].upsampling == .h2v2Fancy || c[1].upsampling == .h2v1Fancy) && c[1].upsampling == c[2].upsampling
            && c[1].downsampledWidth == c[2].downsampledWidth && c[1].downsampledHeight == c[2].downsampledHeight
    }

    /// Output row `y` into `row` (its first byte).
    private func emitRow(_ y: Int, into row: UnsafeMutablePointer<UInt8>, scratch: UpsampleScratch) {
        let width = layout.outputWidth
        if pairsChroma {
            emitPairedRow(y, into: row, scratch: scratch)
            return
        }
        for c in 0..<componentCount {
            scratch.rowPointers[c] = ComponentRowUpsampler.row(layout.components[c], outputRow: y, outputWidth: width,
                                                               scratch: scratch.upsampledRows[c], sums: scratch.columnSums) { ringRow(c, $0) }
        }
        RowColorConverter.convert(conversion, rows: UnsafePointer(scratch.rowPointers), into: row, width: width)
    }

    /// ``emitRow(_:into:scratch:)`` for ``pairsChroma`` layouts: chroma column values from the
    /// ring rows, then upsampling and colour conversion in one pass.
    private func emitPairedRow(_ y: Int, into row: UnsafeMutablePointer<UInt8>, scratch: UpsampleScratch) {
        let luma = layout.components[0], chroma = layout.components[1]
        let chromaWidth = chroma.downsampledWidth
        let cbValues = scratch.pairedValues, crValues = scratch.pairedValues + scratch.pairedValueCount
        if chroma.upsampling == .h2v2Fancy {
            let (near, far, _) = ComponentRowUpsampler.verticalNeighbours(chroma, outputRow: y)
            PairedChromaUpsampler.fillColumnSums(near: ringRow(1, near), far: ringRow(1, far), width: chromaWidth, into: cbValues)
            PairedChromaUpsampler.fillColumnSums(near: ringRow(2, near), far: ringRow(2, far), width: chromaWidth, into: crValues)
        } else {
            let sampleRow = min(y, chroma.downsampledHeight - 1)
            PairedChromaUpsampler.fillSamples(ringRow(1, sampleRow), width: chromaWidth, into: cbValues)
            PairedChromaUpsampler.fillSamples(ringRow(2, sampleRow), width: chromaWidth, into: crValues)
        }
        let lumaRow = UnsafePointer(ringRow(0, min(y, luma.downsampledHeight - 1)))
        if chroma.upsampling == .h2v2Fancy {
            PairedYCbCrConverter.convertH2V2(lumaRow, cbValues: cbValues, crValues: crValues, tail: scratch.pairedTail,
                                             into: row, width: layout.outputWidth)
        } else {
            PairedYCbCrConverter.convertH2V1(lumaRow, cbValues: cbValues, crValues: crValues, tail: scratch.pairedTail,
                                             into: row, width: layout.outputWidth)
        }
    }
}
