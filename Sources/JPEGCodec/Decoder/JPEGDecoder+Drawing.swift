extension JPEGDecoder {
    /// Output rows that hold decoded pixels (``DecodingProgress/completedRows``).
    var completedRows: Int {
        switch assembly {
        case .dct(_, .progressive(let preview, _, _)):
            return preview.completedRows
        case .dct(_, .streaming(let renderer, _)), .dct(_, .multiScan(let renderer)):
            return renderer.nextOutputRow
        case .dct(_, .twelveBit(let renderer)):
            guard let layout = frameState?.layout else { return 0 }
            let decoded = (dirtyIMCURows?.upperBound ?? 0) * layout.outputRowsPerIMCU
            return min(max(renderer.writtenRows, decoded), layout.outputHeight)
        case .lossless(let picture):
            return picture.completedRows
        case nil:
            return 0
        }
    }

    /// Updates ``completedRowsCount`` after decoding or drawing ran.
    func noteCompletedRows() {
        completedRowsCount = completedRows
    }

    /// Two threads: waits for the rows the worker still transforms and emits what they complete.
    func drainPipeline() {
        guard case .dct(_, .streaming(let renderer, let pipeline?)) = assembly, !pipeline.isIdle else { return }
        pipeline.drain { deliver($0, renderer) }
    }

    /// Two threads: emits the caller's share of the rows a finished job made ready (the worker
    /// wrote its share into the picture).
    func deliver(_ rows: TransformPipeline.FinishedRows, _ renderer: BlockRowRenderer) {
        _ = withPixelRows { base, _ in
            jpegInvariant(rows.picture == nil || rows.picture == base, "the picture moved while the worker wrote to it")
            renderer.emitReadyRows(limit: rows.callerRows.upperBound, into: base)
        }
        renderer.skipEmitted(rows.workerRows)
        canvasRowsWritten = max(canvasRowsWritten, renderer.nextOutputRow)
    }

    /// Whole-image storage: draws what changed since the last picture (progressive and lossless
    /// pictures track that themselves; 12-bit and multi-scan sequential ones by `dirtyIMCURows`).
    func renderDirtyRows() {
        switch assembly {
        case .dct(let store, .progressive(let preview, _, _)):
            let rows = withPixelRows { base, _ in preview.render(windows: store.windows, into: base, final: isFinished) } ?? 0
            canvasRowsWritten = max(canvasRowsWritten, rows)
        case .lossless(let picture):
            _ = withPixelRows { base, _ in picture.draw(into: base) }
            canvasRowsWritten = max(canvasRowsWritten, picture.writtenRows)
        case .dct(let store, .twelveBit(let renderer)):
            guard let rows = dirtyIMCURows else { return }
            dirtyIMCURows = nil
            _ = withPixelRows { base, _ in renderer.render(iMCURows: rows, windows: store.windows, into: base) }
            canvasRowsWritten = max(canvasRowsWritten, renderer.writtenRows)
        case .dct(let store, .multiScan(let renderer)):
            guard let rows = dirtyIMCURows, let layout = frameState?.layout else { return }
            dirtyIMCURows = nil
            renderer.beginPass(firstIMCURow: rows.lowerBound)
            let last = min(rows.upperBound, layout.mcuRows - 1)
            let limit = rows.upperBound * layout.outputRowsPerIMCU
            for row in max(rows.lowerBound - 1, 0)...last {
                // The rings hold three iMCU rows: emit as we go.
                renderer.push(iMCURow: row, windows: store.windows, clearingBlocks: false)
                emitRows(renderer, limit: limit)
            }
        case .dct(_, .streaming), nil:
            return
        }
    }

    /// No more data can change the picture: EOI was seen, or an error ended decoding.
    private var isFinished: Bool {
        switch phase {
        case .done, .failed: return true
        default: return false
        }
    }

    /// Lets `renderer` write its ready rows into the picture.
    func emitRows(_ renderer: BlockRowRenderer, limit: Int) {
        _ = withPixelRows { base, _ in renderer.emitReadyRows(limit: limit, into: base) }
        canvasRowsWritten = max(canvasRowsWritten, renderer.nextOutputRow)
    }
}
