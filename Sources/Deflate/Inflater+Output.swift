extension Inflater {
    /// Hands the output produced since the last delivery to `sink`, after updating the running
    /// checksum and checking the output limit (nothing past the limit is ever delivered).
    func deliver(_ sink: (UnsafeRawBufferPointer) throws -> Void) throws {
        var count = outputPosition - deliveredPosition
        guard count > 0 else { return }
        let allowed = options.maxOutputBytes - deliveredTotal
        let overLimit = count > allowed
        if overLimit { count = max(allowed, 0) }
        let bytes = UnsafeRawBufferPointer(start: window + deliveredPosition, count: count)
        if options.verifyChecksums {
            switch format {
            case .zlib: adler.update(bytes)
            case .gzip: crc.update(bytes)
            case .raw: break
            }
        }
        memberOutput &+= count
        deliveredTotal += count
        deliveredPosition += count
        if count > 0 { try sink(bytes) }
        if overLimit { throw outputLimitError(at: currentOffset) }
    }

    /// Delivers new output, then slides the last 32 KiB (the history a match may reach) to the
    /// front of the window. Called only when the window is nearly full, so the source and
    /// destination never overlap (256 KiB - 290 > 2 × 32 KiB).
    /// A caller's buffer does not slide: its end is the output limit, which the careful path checks.
    func makeRoom(_ sink: (UnsafeRawBufferPointer) throws -> Void) throws {
        try deliver(sink)
        guard ownsWindow else { return }
        let keep = min(outputPosition, DeflateConstants.windowSize)
        let from = outputPosition - keep
        if from > 0 { window.update(from: window + from, count: keep) }
        outputPosition = keep
        deliveredPosition = keep
    }

    /// Forgets the history at a gzip member boundary (a member's matches cannot reach into the previous one).
    func resetForNextMember() {
        if !ownsWindow {
            // The caller's buffer: the new member's window starts where the last member ended.
            window += outputPosition
            windowCapacity -= outputPosition
        }
        outputPosition = 0
        deliveredPosition = 0
        crc = CRC32()
        gzipHeaderCRC = CRC32()
        memberOutput = 0
    }
}
