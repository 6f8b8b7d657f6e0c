/// When IDAT bytes go from the input to the inflater, and the few that wait until then.
///
/// Handing bytes to the inflater has a fixed cost per call (CRC, inflater entry and exit, a
/// token attempt, the sink, the row assembler: about 1 500 instructions), so a file fed a byte at
/// a time paid it per byte (35× the one-shot decode). Instead, IDAT bytes are handed over up to
/// the last *hand-over point* the input has reached, and the bytes after it wait here. Hand-over
/// points are the file offsets that are multiples of ``granule`` and the end of every IDAT
/// chunk's data.
///
/// Because the points are fixed file offsets, what has been decoded after a feed depends only on
/// how many bytes were fed, never on how they were split: after 1 000 bytes fed with a granule
/// of 64, every IDAT byte before offset 960 (and every IDAT chunk ending by 1 000) has been
/// inflated, whether the 1 000 bytes came in one piece or a byte at a time. A whole file hands
/// everything over (its IDAT chunks all end before IEND), and ``PNGDecoder/finish()`` hands over
/// what waits when the file ends early.
///
/// Waiting bytes: `waiting[0 ..< waitingCount]`, fewer than ``granule`` (so at most 255), are the
/// next IDAT bytes; the input buffer is empty while any wait. The input has counted all but the
/// last `uncounted` of them as consumed (those arrived on the short path, which does not call
/// into the input buffer), so they start at file offset `consumedOffset + uncounted -
/// waitingCount`. `room` is how many more may wait before the next hand-over point is reached;
/// 0 outside IDAT data. Example: granule 64, IDAT data from offset 1 000 on, 1 030 bytes fed a
/// byte at a time: bytes 1 000 ..< 1 024 were handed over when byte 1 023 arrived, bytes
/// 1 024 ..< 1 030 wait (`waitingCount` 6, `room` 58).
/// These counters live beside the decoder's stage, not in its `.imageData` case, because the
/// byte-at-a-time path updates them on every call and must stay a few instructions long.
@usableFromInline
final class ImageDataHandOver {
    /// The largest granule: 256 bytes keep the fixed cost under 6 instructions per byte.
    static let maxGranule = 256
    /// The granule is at most the larger of the image's filtered bytes / 1 024 and half a
    /// filtered row: a preview of any image lags by at most 1/1 024 of its stored size or about a
    /// row's worth of compressed bytes, so small images keep row-by-row previews.
    static let imageBytesPerGranuleByte = 1024

    /// Distance between hand-over points, a power of two: 1 (every byte at once) … ``maxGranule``.
    private(set) var granule = 1
    /// Storage for the waiting bytes (``maxGranule`` bytes, allocated once).
    @usableFromInline let waiting: UnsafeMutablePointer<UInt8>
    /// How many bytes wait.
    @usableFromInline @exclusivity(unchecked) var waitingCount = 0
    /// How many more bytes may wait before the next hand-over point.
    @usableFromInline @exclusivity(unchecked) var room = 0
    /// The last waiting bytes, not yet counted by the decoder's input buffer (see ``takeUncounted()``).
    @usableFromInline @exclusivity(unchecked) var uncounted = 0

    init() {
        waiting = .allocate(capacity: Self.maxGranule)
    }

    deinit { waiting.deallocate() }

    /// The granule for an image whose rows need `filteredBytes` in all and whose rows (the
    /// narrowest a preview shows: Adam7 pass 1's) take `rowBytes` with the filter byte: the
    /// largest power of two not above the larger of `filteredBytes / 1024` and `rowBytes / 2`,
    /// clamped to 1 … 256. Examples: a 149×227 rgba16 image (1 193-byte rows, 270 811 bytes) gets
    /// 256; a 32×32 rgb8 one (97-byte rows) 32, interlaced (13-byte pass-1 rows) 4; a 1×10 000
    /// gray one (2-byte rows, 20 000 bytes) 16.
    static func granule(filteredBytes: Int, rowBytes: Int) -> Int {
        let target = min(max(filteredBytes / imageBytesPerGranuleByte, rowBytes / 2, 1), maxGranule)
        var granule = 1
        while granule * 2 <= target { granule *= 2 }
        return granule
    }

    /// Sets the granule at the first IDAT chunk (before any byte waits).
    func start(filteredBytes: Int, rowBytes: Int) {
        granule = Self.granule(filteredBytes: filteredBytes, rowBytes: rowBytes)
    }

    /// How many of `available` IDAT bytes, the first at file offset `offset`, to hand over now:
    /// all of the chunk's `remaining` data if it is there, else up to the last hand-over point.
    @inline(__always)
    func count(available: Int, remaining: Int, at offset: Int) -> Int {
        if available >= remaining { return remaining }
        let point = (offset + available) & ~(granule - 1)
        return point > offset ? point - offset : 0
    }

    /// Keeps `byte` waiting if it does not reach the next hand-over point (a byte-at-a-time
    /// caller's usual byte, inlined into ``PNGDecoder/feed(_:)``'s caller); false (nothing kept)
    /// if it does. Never true after a failure, which sets ``room`` to 0.
    @inlinable @inline(__always)
    func wait(byte: UInt8) -> Bool {
        guard room > 1 else { return false }
        waiting[waitingCount] = byte
        waitingCount &+= 1
        uncounted &+= 1
        room &-= 1
        return true
    }

    /// Keeps `bytes` waiting if they do not reach the next hand-over point; false (nothing kept)
    /// if they do.
    @inline(__always)
    func wait(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let count = bytes.count
        guard count < room, let source = bytes.baseAddress else { return count == 0 }
        let target = waiting + waitingCount
        if count == 1 {
            // The byte-at-a-time caller: one load and one store, no loop set-up.
            target.pointee = source.load(as: UInt8.self)
        } else {
            target.update(from: source.assumingMemoryBound(to: UInt8.self), count: count)
        }
        waitingCount &+= count
        uncounted &+= count
        room &-= count
        return true
    }

    /// How many waiting bytes the input buffer has not counted yet; they count as counted from now.
    func takeUncounted() -> Int {
        defer { uncounted = 0 }
        return uncounted
    }

    /// Appends the first `room` bytes of `bytes` (the caller checked there are that many), which
    /// brings the waiting bytes to the hand-over point, and returns all of them. Valid until the
    /// next call; ``clear()`` once they are handed over.
    func fillToPoint(from bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        if let source = bytes.baseAddress, room > 0 {
            (waiting + waitingCount).update(from: source.assumingMemoryBound(to: UInt8.self), count: room)
        }
        waitingCount += room
        room = 0
        return UnsafeRawBufferPointer(start: waiting, count: waitingCount)
    }

    /// The waiting bytes (valid until the next call).
    var waitingBytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: waiting, count: waitingCount) }

    /// Forgets the waiting bytes (they were handed over, after ``takeUncounted()``).
    func clear() {
        waitingCount = 0
        uncounted = 0
        room = 0
    }

    /// Outside IDAT data, after a feed: the parser cannot take its next step (a chunk header, a
    /// CRC, a chunk read whole) before `need` more bytes arrive, so bytes that do not complete
    /// them wait here, up to ``maxGranule`` at a time: a byte-at-a-time caller pays the parser's
    /// attempt once per chunk part or 256 bytes instead of per byte. Only while no byte waits.
    func holdForParser(need: Int) {
        room = min(need, Self.maxGranule)
    }

    /// After a feed: `leftover` (fewer bytes than reach the next hand-over point, the rest of the
    /// input) waits, at file offset `offset`, in a chunk with `remaining` data bytes from there.
    /// Only while no byte waits; the caller counts `leftover` as consumed.
    func settle(leftover: UnsafeRawBufferPointer, at offset: Int, remaining: Int) {
        let point = min(offset + remaining, (offset & ~(granule - 1)) + granule)
        if let source = leftover.baseAddress, leftover.count > 0 {
            waiting.update(from: source.assumingMemoryBound(to: UInt8.self), count: leftover.count)
        }
        waitingCount = leftover.count
        room = point - offset - leftover.count
    }
}
