/// Growable byte storage that decompressed output is copied into, reused across decodes so
/// the timed runs after the warm-up pay for the copy but not for allocation.
final class OutputCollector {
    /// Bytes held: `storage[0..<count]`. Capacity only grows (doubling), e.g. 0 -> 64 KiB -> 128 KiB.
    private var storage: UnsafeMutableRawBufferPointer
    /// Valid bytes at the start of `storage`.
    private(set) var count = 0

    init() {
        storage = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
    }

    deinit { storage.deallocate() }

    /// Forgets the content, keeps the capacity.
    func removeAll() { count = 0 }

    /// Appends a copy of `bytes`.
    @inline(__always)
    func append(_ bytes: UnsafeRawBufferPointer) {
        let needed = count + bytes.count
        if needed > storage.count { grow(toAtLeast: needed) }
        guard let source = bytes.baseAddress, let destination = storage.baseAddress else { return }
        (destination + count).copyMemory(from: source, byteCount: bytes.count)
        count = needed
    }

    @inline(never)
    private func grow(toAtLeast needed: Int) {
        var capacity = storage.count
        while capacity < needed { capacity *= 2 }
        let bigger = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 16)
        if let source = storage.baseAddress, let destination = bigger.baseAddress {
            destination.copyMemory(from: source, byteCount: count)
        }
        storage.deallocate()
        storage = bigger
    }

    /// Lets `body` write straight into the storage, grown to `capacity` bytes; it returns how many
    /// bytes it wrote, which become the content.
    func fill(capacity: Int, _ body: (UnsafeMutableRawBufferPointer) throws -> Int) rethrows {
        if capacity > storage.count { grow(toAtLeast: capacity) }
        count = 0
        count = try body(UnsafeMutableRawBufferPointer(rebasing: storage[0..<capacity]))
    }

    /// The bytes held, for checksumming.
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: storage[0..<count]) }
}
