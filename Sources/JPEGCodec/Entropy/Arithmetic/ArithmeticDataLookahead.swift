/// Counts the entropy-coded data bytes buffered ahead of the arithmetic decoder, so the scan
/// decoder knows how many MCUs the buffered bytes surely hold. Each input byte is examined
/// once: the count resumes where the last call stopped, even inside a run of 0xFF fill bytes.
struct ArithmeticDataLookahead {
    /// Stream offset of the next byte to examine.
    private var offset = 0
    /// Data bytes counted up to `offset`, on the scale of ``ArithmeticDecoder/dataBytesRead``.
    private(set) var dataBytes = 0
    /// `offset` is inside a run of 0xFF whose end (0x00: one data byte; else a marker) is not buffered.
    private var inFillRun = false
    /// A marker was found: the segment's end is buffered.
    private(set) var markerFound = false

    /// Starts counting at `streamOffset`, where the decoder has read `dataBytesRead` data bytes.
    mutating func restart(at streamOffset: Int, dataBytesRead: Int) {
        offset = streamOffset
        dataBytes = dataBytesRead
        inFillRun = false
        markerFound = false
    }

    /// Examines the bytes of `bytes` (stream offset `streamOffset`) not seen yet; the decoder is
    /// at index `position` having read `dataBytesRead` data bytes. Returns the bytes examined.
    mutating func advance(over bytes: UnsafeRawBufferPointer, streamOffset: Int, position: Int, dataBytesRead: Int) -> Int {
        if markerFound { return 0 }
        // The decoder may have read past what was counted (e.g. after the input ended).
        if offset < streamOffset + position { restart(at: streamOffset + position, dataBytesRead: dataBytesRead) }
        var index = offset - streamOffset
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if inFillRun {
                if byte == 0xFF {
                    index += 1
                } else if byte == 0 {
                    inFillRun = false
                    dataBytes += 1
                    index += 1
                } else {
                    markerFound = true
                    break
                }
            } else if byte == 0xFF {
                inFillRun = true
                index += 1
            } else {
                dataBytes += 1
                index += 1
            }
        }
        offset = streamOffset + index
        return index - start
    }
}
