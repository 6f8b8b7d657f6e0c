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
        let progressive = frame.isProgressive
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
            // Progressive scans refine stored coefficients, so they always keep the whole image.
            wholeImageStorage = progressive || scan.components.count < frame.components.count
            let (product, overflow) = options.limits.maxPixels.multipliedReportingOverflow(by: 16)
            var memoryLimit = overflow ? Int.max : product
            if progressive {
                // Previews keep a sample plane per component beside the coefficients.
                guard let planeBytes = SamplePlaneRenderer.planeBytes(for: layout), planeBytes <= memoryLimit else {
                    throw ImageDecodingError(.limitExceeded, at: markerOffset,
                                             "preview sample planes for \(layout.width)×\(layout.height) exceed the memory limit")
                }
                memoryLimit -= planeBytes
            }
            store = try CoefficientStore(layout: layout, extent: wholeImageStorage ? .wholeImage : .oneIMCURow,
                                         rawCoefficients: progressive, maxBytes: memoryLimit, at: markerOffset)
            guard let created = store else { throw ImageDecodingError(.internal, at: markerOffset, "no coefficient store") }
            if progressive {
                // Progressive blocks hold raw coefficients (refinement works on bits), dequantized when drawn.
                preview = ProgressivePreview(layout: layout, conversion: conversion, quantization: UnsafePointer(created.quantization))
            }
            renderer = BlockRowRenderer(layout: layout, conversion: conversion)
        } else if !wholeImageStorage {
            throw ImageDecodingError(.invalidData, at: markerOffset,
                                     "second scan in an image whose first scan already held every component")
        }
        guard let store, let renderer else {
            throw ImageDecodingError(.internal, at: markerOffset, "scan set-up missing")
        }
        // T.81 / libjpeg: a component's quantization table is latched when its first scan starts.
        for component in scan.components where !componentHasQuantization[component.frameIndex] {
            let slot = frame.components[component.frameIndex].quantizationTable
            guard let table = quantizationTables.slots[slot] else {
                throw ImageDecodingError(.invalidData, at: markerOffset,
                                         "component \(frame.components[component.frameIndex].id) uses quantization table \(slot), which is not defined")
            }
            store.setQuantization(component: component.frameIndex, table: table)
            componentHasQuantization[component.frameIndex] = true
        }
        let coding = ScanCoding.of(scan, progressive: progressive)
        preview?.startScan(scan)
        var dcTables: [HuffmanTable] = [], acTables: [HuffmanTable] = []
        for component in scan.components {
            // A component coded again (not valid sequential JPEG, but possible) starts from zero blocks.
            if !progressive && componentWasScanned[component.frameIndex] { store.clear(component: component.frameIndex) }
            // A progressive scan needs only the tables its coding reads (slot 0's standard table stands in).
            dcTables.append(try huffmanTable(dc: true, slot: coding.usesDCTable ? component.dcTable : 0, at: markerOffset))
            acTables.append(try huffmanTable(dc: false, slot: coding.usesACTable ? component.acTable : 0, at: markerOffset))
            componentWasScanned[component.frameIndex] = true
        }
        store.moveTo(iMCURow: 0)
        let windows = scan.components.map { store.windows[$0.frameIndex] }
        scanDecoder = ScanDecoder(scan: scan, layout: layout, dcTables: dcTables, acTables: acTables,
                                            quantization: scan.components.map { store.quantization(component: $0.frameIndex) },
                                            windows: windows, restartInterval: restartInterval, coding: coding)
        currentScan = scan
        if !wholeImageStorage { renderer.beginPass(firstIMCURow: 0) }
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
        guard let scanDecoder else { throw ImageDecodingError(.internal, at: input.consumedOffset, "no scan under way") }
        let examinedBefore = scanDecoder.bytesExamined
        let mcusBefore = scanDecoder.nextMCU
        let step = try scanDecoder.run(bytes: input.readable, streamOffset: input.consumedOffset,
                                       inputComplete: inputComplete,
                                       report: { self.warn($0, affectsPixels: true) },
                                       onMCURow: { self.finishedMCURow($0) })
        inputBytesExamined += scanDecoder.bytesExamined - examinedBefore
        input.consume(scanDecoder.consumedBytes)
        if let preview, scanDecoder.nextMCU > mcusBefore {
            // Every decoded MCU shows in the next picture, even in a half-decoded MCU row.
            preview.reach(decodedMCUs: scanDecoder.nextMCU)
            changedSinceLastCall = true
        }
        guard step == .complete else { return }
        preview?.finishScan(mcuCount: scanDecoder.mcuCount, lastGoodMCU: scanDecoder.lastGoodMCU)
        let (extraneous, _) = scanDecoder.finishScan()
        skippedBytes += extraneous
        scansCompleted += 1
        self.scanDecoder = nil
        changedSinceLastCall = true
        phase = .markers
    }

    /// Called by the scan decoder after each MCU row: streams it to the output, or marks it for
    /// rendering (progressive previews follow the decoded MCUs instead, see `continueScan`).
    private func finishedMCURow(_ row: Int) {
        guard preview == nil, let layout, let store, let renderer, let scan = currentScan else { return }
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
        renderer.push(iMCURow: iMCURow, windows: store.windows, clearingBlocks: true)
        emitRows(renderer, limit: layout.outputHeight)
        store.moveTo(iMCURow: iMCURow + 1)
        for (slot, component) in scan.components.enumerated() {
            scanDecoder?.windows[slot] = store.windows[component.frameIndex]
        }
    }

    /// Whole-image storage: renders the iMCU rows that changed since the last render.
    func renderDirtyRows() {
        if let preview, let store {
            let rows = canvas.withUnsafeMutableBufferPointer { pixels in
                pixels.baseAddress.map { preview.render(windows: store.windows, into: $0, final: isFinished) } ?? 0
            }
            canvasRowsWritten = max(canvasRowsWritten, rows)
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
        canvas.withUnsafeMutableBufferPointer { pixels in
            guard let base = pixels.baseAddress else { return }
            renderer.emitReadyRows(limit: limit, into: base)
        }
        canvasRowsWritten = max(canvasRowsWritten, renderer.nextOutputRow)
    }
}
