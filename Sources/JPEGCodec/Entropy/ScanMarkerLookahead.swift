/// What the buffered bytes ahead of a scan decoder's reader hold: whether a marker (0xFF, any
/// number of 0xFF fill bytes, then a byte other than 0x00) ends the entropy-coded segment there,
/// and how many fill bytes they hold. libjpeg reads 0xFF … 0xFF 0x00 as one 0xFF data byte and
/// 0xFF … 0xFF then a code as that marker (T.81 B.1.1.2 allows fill only before markers), so every
/// 0xFF of a run but its last is fill, holding no bits: a decoder counting on "worst-case bytes for
/// an MCU are buffered" must not count them.
///
/// A decoder asks ``markerAhead(in:from:streamOffset:examined:)`` before every decision; this
/// remembers how far the last search got, so each byte is examined once however the input is
/// chunked (the last byte, which may start a marker or a fill run, once more). Shared by the
/// Huffman (``ScanDecoder``) and lossless (``LosslessScanDecoder``) scans.
struct ScanMarkerLookahead {
    /// Fill bytes starting at a stream offset: a run of `count + 1` 0xFF bytes from `offset` holds
    /// `count` fill bytes (a run split across two searches is recorded in two parts).
    private struct FillRun {
        var offset: Int
        var count: Int
    }

    /// Stream offset up to which the bytes ahead of the reader were examined and hold no marker
    /// (on a marker: the last 0xFF before its code).
    private(set) var markerFreeUpTo = 0
    /// Fill runs found, in stream order; those before `firstLiveRun` are behind the reader.
    private var fillRuns: [FillRun] = []
    private var firstLiveRun = 0
    /// Fill bytes in `fillRuns[firstLiveRun...]`.
    private var liveFillBytes = 0

    /// The caller examined the bytes up to `offset` itself and found no 0xFF in them.
    mutating func noteMarkerFree(upTo offset: Int) {
        markerFreeUpTo = max(markerFreeUpTo, offset)
    }

    /// Whether a marker is buffered in `bytes` (which start at stream offset `streamOffset`) at or
    /// after index `position`; examines every buffered byte not examined yet up to the marker,
    /// recording fill bytes, and adds the bytes looked at to `examined`.
    @inline(never)   // called once per run of MCUs, not per byte: kept apart so profiles show its cost
    mutating func markerAhead(in bytes: UnsafeRawBufferPointer, from position: Int, streamOffset: Int,
                              examined: inout Int) -> Bool {
        var index = max(markerFreeUpTo - streamOffset, position)
        let start = index
        defer {
            examined += index - start
            markerFreeUpTo = streamOffset + index
        }
        guard let base = bytes.baseAddress else { return false }
        let count = bytes.count
        while index + 1 < count {
            // Eight bytes without 0xFF at a time: a byte is 0xFF exactly when its complement is
            // zero (the has-zero-byte test, as in `BitReader.refill`). `index + 8` cannot
            // overflow: both are below a buffer's size.
            while index &+ 8 <= count {
                let inverted = ~base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                if (inverted &- 0x0101_0101_0101_0101) & ~inverted & 0x8080_8080_8080_8080 != 0 { break }
                index &+= 8
            }
            guard index + 1 < count else { break }
            guard base.load(fromByteOffset: index, as: UInt8.self) == 0xFF else {
                index += 1
                continue
            }
            // A run of 0xFF: every one but the last is fill.
            var last = index
            while last + 1 < count && base.load(fromByteOffset: last + 1, as: UInt8.self) == 0xFF { last += 1 }
            if last > index { record(FillRun(offset: streamOffset + index, count: last - index)) }
            index = last
            // The run's last 0xFF is examined again with the byte after it once that arrives.
            guard index + 1 < count else { return false }
            if base.load(fromByteOffset: index + 1, as: UInt8.self) != 0 { return true }
            index += 2
        }
        return false
    }

    /// Fill bytes among the examined bytes from stream offset `offset` (the reader's position,
    /// which only moves forward) on; runs behind it are forgotten.
    mutating func fillBytes(from offset: Int) -> Int {
        while firstLiveRun < fillRuns.count && fillRuns[firstLiveRun].offset < offset {
            liveFillBytes -= fillRuns[firstLiveRun].count
            firstLiveRun += 1
        }
        if firstLiveRun > 0 && firstLiveRun * 2 >= fillRuns.count {
            // Drop the runs behind the reader once they are half the list: amortised O(1) a run.
            fillRuns.removeFirst(firstLiveRun)
            firstLiveRun = 0
        }
        return liveFillBytes
    }

    private mutating func record(_ run: FillRun) {
        fillRuns.append(run)
        liveFillBytes += run.count
    }
}
