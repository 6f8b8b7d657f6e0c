/// Contiguous storage for input bytes that arrive in pieces, with a read and a write index.
///
/// Layout: `storage[0 ..< readIndex]` is consumed, `storage[readIndex ..< writeIndex]` is
/// readable, the rest is free. Example: capacity 8, after appending 5 bytes and consuming 2,
/// readIndex = 2, writeIndex = 5, ``readableCount`` = 3, ``consumedOffset`` = 2.
/// When an append does not fit, the readable bytes move to the front (compaction), and the
/// storage doubles only if they still do not fit, so each byte is copied O(1) times amortised.
public final class InputBuffer {
    private var storage: UnsafeMutableRawBufferPointer
    private var readIndex = 0
    private var writeIndex = 0
    /// Stream offset of `storage[0]`: bytes dropped by compaction so far.
    private var droppedBytes = 0

    /// Makes an empty buffer.
    public init(initialCapacity: Int = 1 << 16) {
        storage = .allocate(byteCount: max(initialCapacity, 64), alignment: 16)
    }

    deinit { storage.deallocate() }

    /// Bytes appended and not yet consumed.
    public var readableCount: Int { writeIndex - readIndex }

    /// Offset in the whole input stream of the first readable byte (bytes consumed so far).
    public var consumedOffset: Int { droppedBytes + readIndex }

    /// Total bytes ever appended.
    public var totalAppended: Int { droppedBytes + writeIndex }

    /// The readable bytes; valid until the next ``append(_:)`` or ``consume(_:)``.
    public var readable: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: storage[readIndex..<writeIndex])
    }

    /// Copies `bytes` in after the readable bytes.
    public func append(_ bytes: UnsafeRawBufferPointer) {
        let count = bytes.count
        guard count > 0, let source = bytes.baseAddress else { return }
        if storage.count - writeIndex < count { makeRoom(for: count) }
        guard let target = storage.baseAddress else { return }
        if count == 1 {
            // A decoder fed byte by byte: one store, not a call to memcpy that costs more.
            (target + writeIndex).storeBytes(of: source.load(as: UInt8.self), as: UInt8.self)
        } else {
            (target + writeIndex).copyMemory(from: source, byteCount: count)
        }
        writeIndex += count
    }

    /// Appends one byte: ``append(_:)`` for a decoder fed a byte at a time, without the checks and
    /// branches a piece of any size needs (a third of the cost of such a feed).
    public func append(byte: UInt8) {
        if writeIndex == storage.count { makeRoom(for: 1) }
        guard let target = storage.baseAddress else { return }
        (target + writeIndex).storeBytes(of: byte, as: UInt8.self)
        writeIndex += 1
    }

    /// Marks `count` readable bytes as consumed (clamped to what is readable).
    public func consume(_ count: Int) {
        readIndex += min(max(count, 0), readableCount)
        if readIndex == writeIndex {
            droppedBytes += readIndex
            readIndex = 0
            writeIndex = 0
        }
    }

    /// Counts `count` bytes that the caller used straight from its own memory as appended and
    /// consumed at once (offsets move on; nothing is copied). Only when nothing is readable:
    /// example, a decoder inflating image data directly from the piece it was fed.
    public func skipUnbuffered(_ count: Int) {
        guard readIndex == writeIndex else { return }
        droppedBytes += readIndex + max(count, 0)
        readIndex = 0
        writeIndex = 0
    }

    /// Drops every readable byte.
    public func consumeAll() { consume(readableCount) }

    private func makeRoom(for count: Int) {
        let live = readableCount
        var capacity = storage.count
        while capacity - live < count { capacity *= 2 }
        if capacity == storage.count, let base = storage.baseAddress {
            // Compact in place: the live bytes move to the front.
            base.copyMemory(from: base + readIndex, byteCount: live)
        } else {
            let bigger = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 16)
            if let to = bigger.baseAddress, let from = storage.baseAddress {
                to.copyMemory(from: from + readIndex, byteCount: live)
            }
            storage.deallocate()
            storage = bigger
        }
        droppedBytes += readIndex
        readIndex = 0
        writeIndex = live
    }
}
