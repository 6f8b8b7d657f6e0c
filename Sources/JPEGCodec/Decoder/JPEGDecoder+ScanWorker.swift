import ImageCore

extension JPEGDecoder {
    /// Two threads, progressive (``ScanWorker``): hands `scan`, just started, to the worker when
    /// its data is all buffered, it cannot throw, and the worker is idle or busy with scans it
    /// depends on; otherwise waits for the worker's scans it depends on (for every one, when the
    /// early band will draw behind it) so this thread can decode it. Returns whether handed over.
    func placeScan(_ scan: DCTScan) throws -> Bool {
        guard case .progressive(let preview, _, let scanWorker?) = scan.drawing else { return false }
        let components = scan.header.components.map(\.frameIndex)
        let codesDC = scan.header.spectralStart == 0
        let dependency = scanWorker.lastDependency(components: components, codesDC: codesDC)
        if !preview.hasEarlyBand, let huffman = scan.decoder as? ScanDecoder, huffman.coding.neverThrows,
           dependency != nil || scanWorker.isIdle {
            var examined = 0
            let bytes = input.readable
            let end = ScanDataEnd.find(in: bytes, examined: &examined)
            bytesExaminedCount += examined
            if let end, end.start >= minimumHandOverBytes {
                let job = ScanJob(decoder: huffman, bytes: Array(UnsafeRawBufferPointer(rebasing: bytes[0...end.codeIndex])),
                                  streamOffset: input.consumedOffset, dataEnd: end.start, ordinal: scansStarted,
                                  components: components, codesDC: codesDC, store: scan.store)
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
        guard case .dct(_, .progressive(let preview, _, let scanWorker?)) = assembly else { return }
        let jobs = scanWorker.collect()
        guard !jobs.isEmpty else { return }
        var merged: [ImageDecodingError] = []
        var failure: ImageDecodingError?
        var damageFromJobs = false
        for job in jobs {
            bytesExaminedCount += job.examined
            for (warning, affectsPixels) in job.warnings {
                merged.append(warning)
                // At one offset the jobs' come first (see below).
                let first = firstPixelDamage?.offset ?? Int.max, offset = warning.offset ?? 0
                if affectsPixels && (offset < first || (offset == first && !damageFromJobs)) {
                    firstPixelDamage = warning
                    damageFromJobs = true
                }
            }
            if job.ordinal == lastFinishedScan, let layout = frameState?.layout, let first = job.components.first {
                var row = max(job.decoder.lastGoodMCU, 0) / max(job.decoder.mcusPerRow, 1)
                if job.components.count == 1 { row /= max(layout.components[first].verticalSampling, 1) }
                preview.setLastGood(iMCURow: row)
            }
            if failure == nil { failure = job.failure }
        }
        if !merged.isEmpty {
            // Both lists are in file order; one thread would have met them interleaved by offset.
            // At one offset the jobs' come first: what this thread met before a job was handed
            // over lies before its scan, and what it met since lies at or after the marker ending
            // it (the jobs' last warning, extraneous bytes, sits at that marker).
            let all = (merged.map { ($0, 0) } + warnings.map { ($0, 1) }).enumerated().sorted {
                ($0.element.0.offset ?? 0, $0.element.1, $0.offset) < ($1.element.0.offset ?? 0, $1.element.1, $1.offset)
            }
            warnings = all.prefix(100).map(\.element.0)
        }
        if let failure { throw failure }
    }
}
