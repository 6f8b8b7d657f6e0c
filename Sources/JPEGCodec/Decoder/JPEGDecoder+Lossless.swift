import ImageCore

extension JPEGDecoder {
    /// SOS of a lossless frame: on the first scan decides the colour space and allocates the
    /// sample planes, then sets up the scan's decoder with its DC tables (symbols 0...16).
    func startLosslessScan(_ scan: ScanHeader, frame: FrameHeader, markerOffset: Int) throws {
        let picture: LosslessPicture
        if case .lossless(let existing) = assembly {
            picture = existing
        } else {
            let geometry = try LosslessGeometry(frame: frame, at: markerOffset)
            let (limit, overflow) = options.limits.maxPixels.multipliedReportingOverflow(by: 16)
            guard let bytes = geometry.planeBytes, overflow || bytes <= limit else {
                throw ImageDecodingError(.limitExceeded, at: markerOffset,
                                         "lossless sample planes for \(frame.width)×\(frame.height) exceed the memory limit")
            }
            let colorSpace = JPEGColorSpace.infer(componentIDs: frame.components.map(\.id), sawJFIF: sawJFIF,
                                                  adobeTransform: adobeTransform, lossless: true)
            let conversion = colorSpace.conversion(wantCMYK: false)
            var outputStride = geometry.width * conversion.bytesPerPixel * (geometry.precision <= 8 ? 1 : 2)
            if case .callerMemory(_, let bytesPerRow) = output { outputStride = bytesPerRow }
            picture = LosslessPicture(geometry: geometry, conversion: conversion, outputStride: outputStride)
            assembly = .lossless(picture)
        }
        var tables: [HuffmanTable] = []
        for component in scan.components {
            let slot = component.dcTable
            guard slot < 4 else {
                throw ImageDecodingError(.invalidData, at: markerOffset, "scan selects Huffman DC table \(slot); only 0...3 exist")
            }
            guard let definition = huffmanTables.dc[slot] else {
                throw ImageDecodingError(.invalidData, at: markerOffset, "scan uses Huffman DC table \(slot), which is not defined")
            }
            if let bad = definition.symbols.first(where: { $0 > 16 }) {
                throw ImageDecodingError(.invalidData, at: markerOffset,
                                         "Huffman DC table \(slot) holds symbol \(bad); lossless difference sizes are 0...16")
            }
            // Built without the DC check (which stops at 15); the sizes were checked above.
            tables.append(try HuffmanTable(definition, isDC: false, name: "DC table \(slot)", offset: markerOffset))
        }
        let decoder = try LosslessScanDecoder(scan: scan, picture: picture, tables: tables,
                                              restartInterval: restartInterval, at: markerOffset)
        for component in scan.components { frameState?.componentWasScanned[component.frameIndex] = true }
        phase = .scan(.lossless(decoder))
    }

    /// Decodes what the buffered entropy-coded bytes of a lossless scan allow.
    func continueLosslessScan(_ scan: LosslessScanDecoder) throws {
        let examinedBefore = scan.bytesExamined, mcusBefore = scan.nextMCU
        let step = try scan.run(bytes: input.readable, streamOffset: input.consumedOffset, inputComplete: inputComplete,
                                report: { self.warn($0, affectsPixels: true) })
        bytesExaminedCount += scan.bytesExamined - examinedBefore
        input.consume(scan.consumedBytes)
        if scan.nextMCU > mcusBefore { changedSinceLastCall = true }
        guard step == .complete else { return }
        skippedBytes += scan.finishScan()
        scansCompleted += 1
        changedSinceLastCall = true
        phase = .markers
    }
}
