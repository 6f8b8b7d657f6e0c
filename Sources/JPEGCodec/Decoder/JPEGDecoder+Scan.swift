import ImageCore

extension JPEGDecoder {
    /// SOS: validates the scan, latches quantization tables, builds Huffman tables and, on the
    /// first scan, sets up how the picture is assembled (``PictureAssembly``).
    func startScan(_ reader: inout SegmentReader, markerOffset: Int) throws {
        guard let state = frameState else {
            throw ImageDecodingError(.invalidData, at: markerOffset, "start of scan (SOS) before the frame header (SOF)")
        }
        let frame = state.frame, layout = state.layout
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
        let store: CoefficientStore, drawing: BlockDrawing
        switch assembly {
        case nil:
            (store, drawing) = try makeBlockAssembly(firstScan: scan, frame: frame, layout: layout, at: markerOffset)
            assembly = .dct(store: store, drawing: drawing)
        case .dct(let existingStore, let existingDrawing):
            guard existingDrawing.keepsWholeImage else {
                throw ImageDecodingError(.invalidData, at: markerOffset,
                                         "second scan in an image whose first scan already held every component")
            }
            (store, drawing) = (existingStore, existingDrawing)
        case .lossless:
            // Lossless frames take `startLosslessScan` above, whatever their scans.
            throw ImageDecodingError(.internal, at: markerOffset, "DCT scan in a lossless frame")
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
        for component in scan.components where !state.componentHasQuantization[component.frameIndex] {
            let slot = frame.components[component.frameIndex].quantizationTable
            guard let table = quantizationTables.slots[slot] else {
                throw ImageDecodingError(.invalidData, at: markerOffset,
                                         "component \(frame.components[component.frameIndex].id) uses quantization table \(slot), which is not defined")
            }
            store.setQuantization(component: component.frameIndex, table: table)
            switch drawing {
            case .twelveBit(let renderer), .progressive(_, let renderer?, _):
                renderer.setQuantization(component: component.frameIndex, table: table)
            default:
                break
            }
            frameState?.componentHasQuantization[component.frameIndex] = true
        }
        // Only now, with every table in place, does the scan change anything: a scan header that
        // fails leaves the picture and the smoothing history as they were. A component coded again
        // (not valid sequential JPEG, but possible) is not cleared first: as in libjpeg, whose
        // blocks keep what they held, its new DC and non-zero AC coefficients overwrite the old.
        for component in scan.components { frameState?.componentWasScanned[component.frameIndex] = true }
        var awaitsPlacement = false
        switch drawing {
        case .progressive(let preview, _, let worker):
            preview.startScan(scan)
            awaitsPlacement = worker != nil
        case .streaming(let renderer, _):
            renderer.beginPass(firstIMCURow: 0)
        case .multiScan, .twelveBit:
            break
        }
        store.moveTo(iMCURow: 0)
        let windows = scan.components.map { store.windows[$0.frameIndex] }
        let quantization = scan.components.map { store.quantization(component: $0.frameIndex) }
        let decoder: any ScanEntropyDecoding
        if frame.isArithmetic {
            decoder = ArithmeticScanDecoder(scan: scan, layout: layout, conditioning: arithmeticConditioning,
                                            quantization: quantization, windows: windows,
                                            restartInterval: restartInterval, coding: coding)
        } else {
            decoder = ScanDecoder(scan: scan, layout: layout, dcTables: dcTables, acTables: acTables,
                                  quantization: quantization, windows: windows, restartInterval: restartInterval,
                                  coding: coding)
        }
        phase = .scan(.dct(DCTScan(header: scan, decoder: decoder, store: store, drawing: drawing, awaitsPlacement: awaitsPlacement)))
    }

    /// The first DCT scan: decides the colour space and whether coefficients stream or are
    /// stored, and allocates them and what draws them.
    private func makeBlockAssembly(firstScan scan: ScanHeader, frame: FrameHeader, layout: FrameLayout,
                                   at markerOffset: Int) throws -> (CoefficientStore, BlockDrawing) {
        let progressive = frame.isProgressive
        let twelveBit = frame.precision == 12
        let colorSpace = JPEGColorSpace.infer(componentIDs: frame.components.map(\.id), sawJFIF: sawJFIF,
                                              adobeTransform: adobeTransform)
        let conversion = colorSpace.conversion(wantCMYK: naturalFormat == .cmyk8)
        var outputStride = layout.outputWidth * conversion.bytesPerPixel
        if case .callerMemory(_, let bytesPerRow) = output { outputStride = bytesPerRow }
        // Progressive scans refine stored coefficients, so they always keep the whole image;
        // so does the 12-bit path, which draws from stored coefficients (`TwelveBitRenderer`).
        let wholeImage = progressive || twelveBit || scan.components.count < frame.components.count
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
        let pipelined = !wholeImage && options.maximumThreads > 1
        let extent: CoefficientStore.Extent = wholeImage ? .wholeImage
            : pipelined ? .iMCURowRing(slots: TransformPipeline.coefficientSlots) : .oneIMCURow
        let store = try CoefficientStore(layout: layout, extent: extent,
                                         rawCoefficients: progressive || twelveBit, maxBytes: memoryLimit, at: markerOffset)
        var twelveBitRenderer: TwelveBitRenderer?
        if twelveBit {
            // 16-bit samples: twice the 8-bit row, unless the caller set the row size.
            var twelveBitStride = layout.outputWidth * conversion.bytesPerPixel * 2
            if case .callerMemory(_, let bytesPerRow) = output { twelveBitStride = bytesPerRow }
            twelveBitRenderer = TwelveBitRenderer(layout: layout, conversion: conversion, outputStride: twelveBitStride)
        }
        if progressive {
            // Progressive blocks hold raw coefficients (refinement works on bits), dequantized when drawn.
            let preview = ProgressivePreview(layout: layout, conversion: conversion, quantization: UnsafePointer(store.quantization),
                                             outputStride: outputStride, threads: options.maximumThreads,
                                             twelveBitRenderer: twelveBitRenderer)
            let worker = options.maximumThreads > 1 && !twelveBit && !frame.isArithmetic ? ScanWorker() : nil
            return (store, .progressive(preview: preview, twelveBit: twelveBitRenderer, worker: worker))
        }
        if let twelveBitRenderer { return (store, .twelveBit(renderer: twelveBitRenderer)) }
        let renderer = BlockRowRenderer(layout: layout, conversion: conversion, outputStride: outputStride,
                                        ringIMCURows: pipelined ? TransformPipeline.ringIMCURows : 3)
        if wholeImage { return (store, .multiScan(renderer: renderer)) }
        let pipeline = pipelined ? TransformPipeline(renderer: renderer, store: store, layout: layout) : nil
        return (store, .streaming(renderer: renderer, pipeline: pipeline))
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

    /// Decodes what the buffered entropy-coded bytes of the scan under way allow.
    func continueScan(_ active: ActiveScan) throws {
        switch active {
        case .lossless(let decoder):
            try continueLosslessScan(decoder)
        case .dct(let scan):
            if scan.awaitsPlacement {
                scan.awaitsPlacement = false
                if try placeScan(scan) { return }
            }
            try continueDCTScan(scan)
        }
    }

    private func continueDCTScan(_ scan: DCTScan) throws {
        let decoder = scan.decoder
        // Two threads: the worker's loop ends with this call (its jobs still finish), so no
        // thread waits while the decoder waits for bytes.
        defer { if case .streaming(_, let pipeline?) = scan.drawing { pipeline.pauseWorker() } }
        let examinedBefore = decoder.bytesExamined, batchesBefore = decoder.mcuBatches
        let mcusBefore = decoder.nextMCU
        let step = try decoder.run(bytes: input.readable, streamOffset: input.consumedOffset,
                                   inputComplete: inputComplete,
                                   report: { self.warn($0, affectsPixels: true) },
                                   onMCURow: { self.finishedMCURow($0, of: scan) })
        bytesExaminedCount += decoder.bytesExamined - examinedBefore
        scanRuns += 1
        mcuBatches += decoder.mcuBatches - batchesBefore
        input.consume(decoder.consumedBytes)
        switch scan.drawing {
        case .twelveBit:
            markDirtyIMCURows(decodedMCUs: mcusBefore..<decoder.nextMCU, of: scan)
        case .progressive(let preview, _, _) where decoder.nextMCU > mcusBefore:
            // Every decoded MCU shows in the next picture, even in a half-decoded MCU row.
            preview.reach(decodedMCUs: decoder.nextMCU)
            changedSinceLastCall = true
        default:
            break
        }
        guard step == .complete else { return }
        drainPipeline()
        if case .progressive(let preview, _, _) = scan.drawing {
            preview.finishScan(mcuCount: decoder.mcuCount, lastGoodMCU: decoder.lastGoodMCU)
        }
        let (extraneous, _) = decoder.finishScan()
        skippedBytes += extraneous
        endScan()
    }

    /// The scan under way is done as far as the parser goes (decoded here, or handed to the
    /// worker): counted as finished, back to looking for markers.
    func endScan() {
        lastFinishedScan = scansStarted
        scansCompleted += 1
        changedSinceLastCall = true
        phase = .markers
    }

    /// Called by the scan decoder after each MCU row: streams it to the output, or marks it for
    /// rendering (progressive previews follow the decoded MCUs instead, see `continueDCTScan`).
    private func finishedMCURow(_ row: Int, of scan: DCTScan) {
        let store = scan.store
        if case .progressive(let preview, _, _) = scan.drawing {
            // Two threads: the worker may draw the rows of the final picture this row completes.
            if preview.hasEarlyBand {
                _ = withPixelRows { base, _ in preview.scanPassed(mcuRow: row, windows: store.windows, output: base) }
            }
            return
        }
        guard let layout = frameState?.layout else { return }
        var iMCURow = row
        if !scan.header.isInterleaved {
            // A single-component scan's MCU row is one block row; an iMCU row holds V of them.
            let component = layout.components[scan.header.components[0].frameIndex]
            let v = component.verticalSampling
            guard (row + 1) % v == 0 || row == component.heightInBlocks - 1 else { return }
            iMCURow = row / v
        }
        changedSinceLastCall = true
        guard case .streaming(let renderer, let pipeline) = scan.drawing else {
            let lower = min(dirtyIMCURows?.lowerBound ?? iMCURow, iMCURow)
            let upper = max(dirtyIMCURows?.upperBound ?? iMCURow + 1, iMCURow + 1)
            dirtyIMCURows = lower..<upper
            return
        }
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
        for (slot, component) in scan.header.components.enumerated() {
            scan.decoder.windows[slot] = store.windows[component.frameIndex]
        }
    }

    /// Whole-image storage drawn by iMCU rows (12-bit files, multi-scan sequential files): the
    /// iMCU rows holding MCUs `mcus` of `scan` changed (decoded, or skipped after the data ran
    /// out, which leaves them as they were), so the next picture draws them, even when their MCU
    /// row is not complete yet.
    func markDirtyIMCURows(decodedMCUs mcus: Range<Int>, of scan: DCTScan) {
        guard !mcus.isEmpty, let layout = frameState?.layout else { return }
        let perRow = max(scan.decoder.mcusPerRow, 1)
        // A single-component scan's MCU row is one block row; an iMCU row holds V of them.
        let v = scan.header.isInterleaved ? 1 : layout.components[scan.header.components[0].frameIndex].verticalSampling
        let first = mcus.lowerBound / perRow / v, last = (mcus.upperBound - 1) / perRow / v
        let rows = min(first, dirtyIMCURows?.lowerBound ?? first)..<max(last + 1, dirtyIMCURows?.upperBound ?? 0)
        dirtyIMCURows = rows.clamped(to: 0..<layout.mcuRows)
        changedSinceLastCall = true
    }
}
