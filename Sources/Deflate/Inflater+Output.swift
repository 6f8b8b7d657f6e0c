extension Inflater {
    /// Hands the output produced since the last delivery to `sink`, after checking the output
    /// limit (nothing past the limit is ever delivered). The running checksum catches up later
    /// (``checksumDelivered()``).
    func deliver(_ sink: (UnsafeRawBufferPointer) throws -> Void) throws {
        var count = outputPosition - deliveredPosition
        guard count > 0 else { return }
        let allowed = options.maxOutputBytes - deliveredTotal
        let overLimit = count > allowed
        if overLimit { count = max(allowed, 0) }
        let bytes = UnsafeRawBufferPointer(start: window + deliveredPosition, count: count)
        memberOutput &+= count
        deliveredTotal += count
        deliveredPosition += count
        if count > 0 { try sink(bytes) }
        if overLimit { throw outputLimitError(at: currentOffset) }
    }

    /// Folds the delivered output not yet in the running checksum (Adler-32 for zlib, CRC-32 for
    /// gzip) into it. Deferred from ``deliver(_:)`` so that deliveries of a byte or two (input fed
    /// a byte at a time) are summed in long runs: called before the window slides or moves and
    /// before the trailer is compared, the only times the checksum or those bytes are needed.
    func checksumDelivered() {
        let count = deliveredPosition - checksummedPosition
        guard count > 0 else { return }
        if options.verifyChecksums {
            let bytes = UnsafeRawBufferPointer(start: window + checksummedPosition, count: count)
            switch format {
            case .zlib: adler.update(bytes)
            case .gzip: crc.update(bytes)
            case .raw: break
            }
        }
        checksummedPosition = deliveredPosition
    }

    /// Delivers new output, then slides the last 32 KiB (the history a match may reach) to the
    /// front of the window. Called only when the window is nearly full, so the source and
    /// destination never overlap (256 KiB - 290 > 2 × 32 KiB).
    /// A caller's buffer does not slide: its end is the output limit, which the careful path
    /// checks; the output so far goes into the running checksum (see ``fastOutputLimit``).
    func makeRoom(_ sink: (UnsafeRawBufferPointer) throws -> Void) throws {
        try deliver(sink)
        guard ownsWindow else {
            if sumsAsItGoes { checksumDelivered() }
            return
        }
        checksumDelivered()
        let keep = min(outputPosition, DeflateConstants.windowSize)
        let from = outputPosition - keep
        if from > 0 { window.update(from: window + from, count: keep) }
        outputPosition = keep
        deliveredPosition = keep
        checksummedPosition = keep
    }

    /// Forgets the history at a gzip member boundary (a member's matches cannot reach into the previous one).
    func resetForNextMember() {
        checksumDelivered()
        if !ownsWindow {
            // The caller's buffer: the new member's window starts where the last member ended.
            window += outputPosition
            windowCapacity -= outputPosition
        }
        outputPosition = 0
        deliveredPosition = 0
        checksummedPosition = 0
        crc = CRC32()
        gzipHeaderCRC = CRC32()
        memberOutput = 0
    }
}
