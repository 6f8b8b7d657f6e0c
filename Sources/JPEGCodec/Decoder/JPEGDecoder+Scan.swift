import ImageCore

extension JPEGDecoder {
    /// SOS: validates the scan, latches quantization tables, builds Huffman tables and, on the
    /// first scan, decides the colour space and whether coefficients stream or are stored.
    func startScan(_ reader: inout SegmentReader, markerOffset: Int) throws {
        guard let frame, let layout else {
            throw ImageDecodingError(.invalidData, at: markerOffset, "start of scan (SOS) before the frame header (SOF)")
        }
        let scan = try ScanHeader.parse(&reader, frame: frame)
        scansStarted += 1
        guard scansStarted <= options.limits.maxScans else {
            throw ImageDecodingError(.limitExceeded, at: markerOffset, "more than \(options.limits.maxScans) scans")
        }
        if frame.isLossless { return try startLosslessScan(scan, frame: frame, markerOffset: markerOffset) }
        let progressive = frame.isProgressive
        let twelveBit = frame.precision == 12
        if progressive {
            try ProgressiveScanRules.validate(scan, at: markerOffset)
        } else if !scan.hasSequentialParameters {
            warn(ImageDecodingError(.invalidData, at: markerOffset,
                                    "sequential scan declares Ss=\(scan.spectralStart) Se=\(scan.spectralEnd) Ah=\(scan.approximationHigh) Al=\(scan.approximationLow); decoded as 0, 63, 0, 0"),
                 affectsPixels: false)
        }
        if scansStarted == 1 {
            let colorSpace = JPEGColorSpace.infer(componentIDs: frame.components.map(\.id), sawJFIF: sawJFIF,
                                                  adobeTransform: adobeTransform)
            let conversion = colorSpace.conversion(wantCMYK: naturalFormat == .cmyk8)
            var outputStride = layout.outputWidth * conversion.bytesPerPixel
            if case .callerMemory(_, let bytesPerRow) = output { outputStride = bytesPerRow }
            // Progressive scans refine stored coefficients, so they always keep the whole image;
            // so does the 12-bit path, which draws from stored coefficients (`TwelveBitRenderer`).
            wholeImageStorage = progressive || twelveBit || scan.components.count < frame.components.count
            let (product, overflow) = options.limits.maxPixels.multipliedReportingOverflow(by: 16)
            var memoryLimit = overflow ? Int.max : product
            if progressive || twelveBit {
                // Previews keep a sample plane per component beside the coefficients.
                let planes = twelveBit ? TwelveBitRenderer.planeBytes(for: layout) : SamplePlaneRenderer.planeBytes(for: layout)
                guard let planeBytes = planes, planeBytes <= memoryLimit else {
                    throw ImageDecodingError(.limitExceeded, at: markerOffset,
                                             "preview sample planes for \(layout.width)×\(layout.height) exceed the memory limit")
                }
                memoryLimit -= planeBytes
            }
            // A single sequential scan streams rows; with a second thread its IDCTs run there.
            let pipelined = !wholeImageStorage && options.maximumThreads > 1
            let extent: CoefficientStore.Extent = wholeImageStorage ? .wholeImage
                : pipelined ? .iMCURowRing(slots: TransformPipeline.coefficientSlots) : .oneIMCURow
            store = try CoefficientStore(layout: layout, extent: extent,
                                         rawCoefficients: progressive || twelveBit, maxBytes: memoryLimit, at: markerOffset)
            guard let created = store else { throw ImageDecodingError(.internal, at: markerOffset, "no coefficient store") }
            if twelveBit {
                // 16-bit samples: twice the 8-bit row, unless the caller set the row size.
                var twelveBitStride = layout.outputWidth * conversion.bytesPerPixel * 2
                if case .callerMemory(_, let bytesPerRow) = output { twelveBitStride = bytesPerRow }
                twelveBitRenderer = TwelveBitRenderer(layout: layout, conversion: conversion, outputStride: twelveBitStride)
            }
            if progressive {
                // Progressive blocks hold raw coefficients (refinement works on bits), dequantized when drawn.
                preview = ProgressivePreview(layout: layout, conversion: conversion, quantization: UnsafePointer(created.quantization),
                                             outputStride: outputStride, threads: options.maximumThreads,
                                             twelveBitRenderer: twelveBitRenderer)
                if options.maximumThreads > 1 && !twelveBit && !frame.isArithmetic { scanWorker = ScanWorker() }
            }
            if !twelveBit {
                let createdRenderer = BlockRowRenderer(layout: layout, conversion: conversion, outputStride: outputStride,
                                                       ringIMCURows: pipelined ? TransformPipeline.ringIMCURows : 3)
                renderer = createdRenderer
                if pipelined {
                    pipeline = TransformPipeline(renderer: createdRenderer, store: created, layout: layout)
                }
            }
        } else if !wholeImageStorage {
            throw ImageDecodingError(.invalidData, at: markerOffset,
                                     "second scan in an image whose first scan already held every component")
        }
        guard let store else {
            throw ImageDecodingError(.internal, at: markerOffset, "scan set-up missing")
        }
        let coding = ScanCoding.of(scan, progressive: progressive, rawSequential: twelveBit)
        var dcTables: [HuffmanTable] = [], acTables: [HuffmanTable] = []
        // Arithmetic scans select conditioning tables (0...15, defaults when undefined) instead.
        for component in scan.components where !frame.isArithmetic {
            // A progressive scan needs only the tables its coding reads (slot 0's standard table stands in).
            dcTables.append(try huffmanTable(dc: true, slot: coding.usesDCTable ? component.dcTable : 0, at: markerOffset))
            acTables.append(try huffmanTable(dc: false, slot: coding.usesACTable ? component.acTable : 0, at: markerOffset))
        }
        // T.81 / libjpeg: a component's quantization table is latched when its first scan starts.
        for component in scan.components where !componentHasQuantization[component.frameIndex] {
            let slot = frame.components[component.frameIndex].quantizationTable
            guard let table = quantizationTables.slots[slot] else {
                throw ImageDecodingError(.invalidData, at: markerOffset,
                                         "component \(frame.components[component.frameIndex].id) uses quantization table \(slot), which is not defined")
            }
            store.setQuantization(component: component.frameIndex, table: table)
            twelveBitRenderer?.setQuantization(component: component.frameIndex, table: table)
            componentHasQuantization[component.frameIndex] = true
        }
        // Only now, with every table in place, does the scan change anything: a scan header that
        // fails leaves the picture and the smoothing history as they were. A component coded again
        // (not valid sequential JPEG, but possible) is not cleared first: as in libjpeg, whose
        // blocks keep what they held, its new DC and non-zero AC coefficients overwrite the old.
        for component in scan.components { componentWasScanned[component.frameIndex] = true }
        preview?.startScan(scan)
        store.moveTo(iMCURow: 0)
        let windows = scan.components.map { store.windows[$0.frameIndex] }
        let quantization = scan.components.map { store.quantization(component: $0.frameIndex) }
        if frame.isArithmetic {
            scanDecoder = ArithmeticScanDecoder(scan: scan, layout: layout, conditioning: arithmeticConditioning,
                                                quantization: quantization, windows: windows,
                                                restartInterval: restartInterval, coding: coding)
        } else {
            scanDecoder = ScanDecoder(scan: scan, layout: layout, dcTables: dcTables, acTables: acTables,
                                      quantization: quantization, windows: windows, restartInterval: restartInterval,
                                      coding: coding)
        }
        currentScan = scan
        scanPlacementPending = scanWorker != nil
        if !wholeImageStorage { renderer?.beginPass(firstIMCURow: 0) }
        phase = .scan
    }

    /// The decoding table for a slot; undefined slots 0 and 1 get the T.81 K.3 tables (MJPEG).
    private func huffmanTable(dc: Bool, slot: Int, at offset: Int) throws -> HuffmanTable {
        let name = "\(dc ? "DC" : "AC") table \(slot)"
        guard slot < 4 else {
            throw ImageDecodingError(.invalidData, at: offset, "scan selects Huffman \(name); only 0...3 exist")
        }
        let defined = dc ? huffmanTables.dc[slot] : huffmanTables.ac[slot]
        guard let definition = defined ?? (slot < 2 ? (dc ? StandardHuffmanTables.dc(slot: slot) : StandardHuffmanTables.ac(slot: slot)) : nil) else {
            throw ImageDecodingError(.invalidData, at: offset, "scan uses Huffman \(name), which is not defined")
        }
        return try HuffmanTable(definition, isDC: dc, name: name, offset: offset)
    }

    /// Decodes what the buffered entropy-coded bytes allow.
    func continueScan() throws {
        if losslessScan != nil { return try continueLosslessScan() }
        guard let scanDecoder else { throw ImageDecodingError(.internal, at: input.consumedOffset, "no scan under way") }
        if scanPlacementPending {
            scanPlacementPending = false
            if try placeScan(scanDecoder) { return }
        }
        // Two threads: the worker's loop ends with this call (its jobs still finish), so no
        // thread waits while the decoder waits for bytes.
        defer { pipeline?.pauseWorker() }
        let examinedBefore = scanDecoder.bytesExamined
        let mcusBefore = scanDecoder.nextMCU
        let step = try scanDecoder.run(bytes: input.readable, streamOffset: input.consumedOffset,
                                       inputComplete: inputComplete,
                                       report: { self.warn($0, affectsPixels: true) },
                                       onMCURow: { self.finishedMCURow($0) })
        bytesExaminedCount += scanDecoder.bytesExamined - examinedBefore
        input.consume(scanDecoder.consumedBytes)
        if twelveBitRenderer != nil && preview == nil { markDirtyIMCURows(decodedMCUs: mcusBefore..<scanDecoder.nextMCU, of: scanDecoder) }
        if let preview, scanDecoder.nextMCU > mcusBefore {
            // Every decoded MCU shows in the next picture, even in a half-decoded MCU row.
            preview.reach(decodedMCUs: scanDecoder.nextMCU)
            changedSinceLastCall = true
        }
        guard step == .complete else { return }
        drainPipeline()
        preview?.finishScan(mcuCount: scanDecoder.mcuCount, lastGoodMCU: scanDecoder.lastGoodMCU)
        let (extraneous, _) = scanDecoder.finishScan()
        skippedBytes += extraneous
        endScan()
    }

    /// The scan under way is done as far as the parser goes (decoded here, or handed to the
    /// worker): counted as finished, its decoder dropped, back to looking for markers.
    private func endScan() {
        lastFinishedScan = scansStarted
        scansCompleted += 1
        scanDecoder = nil
        changedSinceLastCall = true
        phase = .markers
    }

    /// Two threads, progressive (``ScanWorker``): hands the scan just started to the worker when
    /// its data is all buffered, it cannot throw, and the worker is idle or busy with scans it
    /// depends on; otherwise waits for the worker's scans it depends on (for every one, when the
    /// early band will draw behind it) so this thread can decode it. Returns whether handed over.
    private func placeScan(_ decoder: any ScanEntropyDecoding) throws -> Bool {
        guard let scanWorker, let scan = currentScan, let preview, let store else { return false }
        let components = scan.components.map(\.frameIndex)
        let codesDC = scan.spectralStart == 0
        let dependency = scanWorker.lastDependency(components: components, codesDC: codesDC)
        if !preview.hasEarlyBand, let huffman = decoder as? ScanDecoder, huffman.coding.neverThrows,
           dependency != nil || scanWorker.isIdle {
            var examined = 0
            let bytes = input.readable
            let end = ScanDataEnd.find(in: bytes, examined: &examined)
            bytesExaminedCount += examined
            if let end, end.start >= minimumHandOverBytes {
                let job = ScanJob(decoder: huffman, bytes: Array(UnsafeRawBufferPointer(rebasing: bytes[0...end.codeIndex])),
                                  streamOffset: input.consumedOffset, dataEnd: end.start, ordinal: scansStarted,
                                  components: components, codesDC: codesDC, store: store)
                scanWorker.submit(job)
                // Finished as far as the parser is concerned; the rest is merged by `joinScanWorker`.
                preview.finishScan(mcuCount: huffman.mcuCount, lastGoodMCU: huffman.mcuCount - 1)
                endScan()
                input.consume(end.start)
                return true
            }
        }
        if preview.hasEarlyBand {
            try joinScanWorker()
        } else if let dependency {
            scanWorker.wait(through: dependency)
        }
        return false
    }

    /// Waits for the worker's scans and merges what decoding them gave, in file order: warnings
    /// (by stream offset, as one thread meets them), the first damage, bytes examined, and the
    /// last good MCU when the last scan finished was one of them. Throws the first job's failure.
    func joinScanWorker() throws {
        guard let scanWorker else { return }
        let jobs = scanWorker.collect()
        guard !jobs.isEmpty else { return }
        var merged: [ImageDecodingError] = []
        var failure: ImageDecodingError?
        for job in jobs {
            bytesExaminedCount += job.examined
            for (warning, affectsPixels) in job.warnings {
                merged.append(warning)
                if affectsPixels, (firstPixelDamage?.offset ?? Int.max) > (warning.offset ?? 0) { firstPixelDamage = warning }
            }
            if job.ordinal == lastFinishedScan, let layout, let first = job.components.first {
                var row = max(job.decoder.lastGoodMCU, 0) / max(job.decoder.mcusPerRow, 1)
                if job.components.count == 1 { row /= max(layout.components[first].verticalSampling, 1) }
                preview?.setLastGood(iMCURow: row)
            }
            if failure == nil { failure = job.failure }
        }
        if !merged.isEmpty {
            // Both lists are in file order; one thread would have met them interleaved by offset.
            let all = (warnings + merged).enumerated().sorted { ($0.element.offset ?? 0, $0.offset) < ($1.element.offset ?? 0, $1.offset) }
            warnings = all.prefix(100).map(\.element)
        }
        if let failure { throw failure }
    }

    /// Called by the scan decoder after each MCU row: streams it to the output, or marks it for
    /// rendering (progressive previews follow the decoded MCUs instead, see `continueScan`).
    private func finishedMCURow(_ row: Int) {
        if let preview {
            // Two threads: the worker may draw the rows of the final picture this row completes.
            if preview.hasEarlyBand, let store {
                _ = withPixelRows { base, _ in preview.scanPassed(mcuRow: row, windows: store.windows, output: base) }
            }
            return
        }
        guard let layout, let store, let scan = currentScan else { return }
        var iMCURow = row
        if !scan.isInterleaved {
            // A single-component scan's MCU row is one block row; an iMCU row holds V of them.
            let component = layout.components[scan.components[0].frameIndex]
            let v = component.verticalSampling
            guard (row + 1) % v == 0 || row == component.heightInBlocks - 1 else { return }
            iMCURow = row / v
        }
        changedSinceLastCall = true
        if wholeImageStorage {
            let lower = min(dirtyIMCURows?.lowerBound ?? iMCURow, iMCURow)
            let upper = max(dirtyIMCURows?.upperBound ?? iMCURow + 1, iMCURow + 1)
            dirtyIMCURows = lower..<upper
            return
        }
        guard let renderer else { return }
        if let pipeline {
            // The worker transforms this row while this thread emits the previous one's rows
            // and then decodes the next row into the other coefficient slot. (A ring of six
            // rows without this wait was tried and measured slower on two idle cores: 4:2:0
            // 23.4 ms against 16.6 ms; see README, two threads.)
            let picture = withPixelRows { TransformPipeline.Picture(base: $0, bytesPerRow: $1) }
            pipeline.submit(iMCURow: iMCURow, windows: store.windows, picture: picture) { deliver($0, renderer) }
            pipeline.waitFor(iMCURow: iMCURow - 1) { deliver($0, renderer) }
        } else {
            renderer.push(iMCURow: iMCURow, windows: store.windows, clearingBlocks: true)
        }
        emitRows(renderer, limit: layout.outputHeight)
        store.moveTo(iMCURow: iMCURow + 1)
        for (slot, component) in scan.components.enumerated() {
            scanDecoder?.windows[slot] = store.windows[component.frameIndex]
        }
    }

    /// Whole-image storage drawn by iMCU rows (12-bit files, multi-scan sequential files): the
    /// iMCU rows holding MCUs `mcus` of the scan under way changed (decoded, or skipped after the
    /// data ran out, which leaves them as they were), so the next picture draws them, even when
    /// their MCU row is not complete yet.
    func markDirtyIMCURows(decodedMCUs mcus: Range<Int>, of scan: any ScanEntropyDecoding) {
        guard !mcus.isEmpty, let layout, let currentScan else { return }
        let perRow = max(scan.mcusPerRow, 1)
        // A single-component scan's MCU row is one block row; an iMCU row holds V of them.
        let v = currentScan.isInterleaved ? 1 : layout.components[currentScan.components[0].frameIndex].verticalSampling
        let first = mcus.lowerBound / perRow / v, last = (mcus.upperBound - 1) / perRow / v
        let rows = min(first, dirtyIMCURows?.lowerBound ?? first)..<max(last + 1, dirtyIMCURows?.upperBound ?? 0)
        dirtyIMCURows = rows.clamped(to: 0..<layout.mcuRows)
        changedSinceLastCall = true
    }

    /// Two threads: waits for the rows the worker still transforms and emits what they complete.
    func drainPipeline() {
        guard let pipeline, !pipeline.isIdle, let renderer else { return }
        pipeline.drain { deliver($0, renderer) }
    }

    /// Two threads: emits the caller's share of the rows a finished job made ready (the worker
    /// wrote its share into the picture).
    private func deliver(_ rows: TransformPipeline.FinishedRows, _ renderer: BlockRowRenderer) {
        _ = withPixelRows { base, _ in
            jpegInvariant(rows.picture == nil || rows.picture == base, "the picture moved while the worker wrote to it")
            renderer.emitReadyRows(limit: rows.callerRows.upperBound, into: base)
        }
        renderer.skipEmitted(rows.workerRows)
        canvasRowsWritten = max(canvasRowsWritten, renderer.nextOutputRow)
    }

    /// Whole-image storage: renders the iMCU rows that changed since the last render.
    func renderDirtyRows() {
        if let preview, let store {
            let rows = withPixelRows { base, _ in preview.render(windows: store.windows, into: base, final: isFinished) } ?? 0
            canvasRowsWritten = max(canvasRowsWritten, rows)
            return
        }
        if let lossless {
            _ = withPixelRows { base, _ in lossless.draw(into: base) }
            canvasRowsWritten = max(canvasRowsWritten, lossless.writtenRows)
            return
        }
        if let twelveBitRenderer, let rows = dirtyIMCURows, let store {
            dirtyIMCURows = nil
            _ = withPixelRows { base, _ in twelveBitRenderer.render(iMCURows: rows, windows: store.windows, into: base) }
            canvasRowsWritten = max(canvasRowsWritten, twelveBitRenderer.writtenRows)
            return
        }
        guard wholeImageStorage, let rows = dirtyIMCURows, let layout, let store, let renderer else { return }
        dirtyIMCURows = nil
        renderer.beginPass(firstIMCURow: rows.lowerBound)
        let last = min(rows.upperBound, layout.mcuRows - 1)
        let limit = rows.upperBound * layout.outputRowsPerIMCU
        for row in max(rows.lowerBound - 1, 0)...last {
            // The rings hold three iMCU rows: emit as we go.
            renderer.push(iMCURow: row, windows: store.windows, clearingBlocks: false)
            emitRows(renderer, limit: limit)
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
    private func emitRows(_ renderer: BlockRowRenderer, limit: Int) {
        _ = withPixelRows { base, _ in renderer.emitReadyRows(limit: limit, into: base) }
        canvasRowsWritten = max(canvasRowsWritten, renderer.nextOutputRow)
    }
}
