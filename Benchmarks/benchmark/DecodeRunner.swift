/// What one decode produced.
struct DecodeOutcome {
    /// Bytes of decoded output (pixels for images).
    var outputBytes: Int
    /// Image width, nil for compressed streams.
    var width: Int?
    /// Image height, nil for compressed streams.
    var height: Int?
}

/// Decodes one kind of input, in one call or chunk by chunk, and keeps the output of the
/// last decode so it can be checksummed after timing (which also keeps the optimiser from
/// dropping the work).
///
/// To benchmark a new decoder, write one runner and return it from ``RunnerCatalog``.
protocol DecodeRunner: AnyObject {
    /// Decodes all of `input`, feeding it `chunkSize` bytes at a time through the
    /// incremental API, or all at once when `chunkSize` is nil.
    func decode(_ input: UnsafeRawBufferPointer, chunkSize: Int?) throws -> DecodeOutcome
    /// CRC-32 of the output of the last successful ``decode(_:chunkSize:)``.
    func lastOutputCRC32() -> UInt32
}

extension UnsafeRawBufferPointer {
    /// Calls `body` with consecutive slices of at most `chunkSize` bytes (one slice with
    /// everything when `chunkSize` is nil). An empty buffer gives one empty slice, so a
    /// decoder always sees at least one feed.
    @inline(__always)
    func forEachChunk(of chunkSize: Int?, _ body: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        _ = try forEachChunk(of: chunkSize, while: { chunk in
            try body(chunk)
            return true
        })
    }

    /// ``forEachChunk(of:_:)`` while `body` returns true: returns the bytes after the piece for
    /// which it returned false (empty if it never did).
    @inline(__always)
    func forEachChunk(of chunkSize: Int?, while body: (UnsafeRawBufferPointer) throws -> Bool) rethrows -> UnsafeRawBufferPointer {
        guard let chunkSize, chunkSize < count, let base = baseAddress else {
            _ = try body(self)
            return UnsafeRawBufferPointer(start: nil, count: 0)
        }
        // Pointer steps, not `rebasing:` slices (whose bounds checks cost a byte-at-a-time run
        // more than feeding the decoder a byte): what a caller with a buffer in hand does.
        var start = base
        var left = count
        while left > 0 {
            let size = Swift.min(chunkSize, left)
            let goOn = try body(UnsafeRawBufferPointer(start: start, count: size))
            start += size
            left -= size
            if !goOn { break }
        }
        return UnsafeRawBufferPointer(start: start, count: left)
    }
}
