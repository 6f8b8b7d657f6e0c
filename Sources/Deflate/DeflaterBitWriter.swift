/// The growing output of a ``Deflater``: bits are packed LSB first as DEFLATE requires
/// (RFC 1951 3.1.1), Huffman codes already bit-reversed by the caller.
///
/// Invariants: `storage[0..<count]` holds finished bytes; `bitBuffer` holds `bitCount` (< 32
/// between calls) pending bits, the oldest in bit 0. Callers ``reserve(_:)`` room for what they
/// are about to write, so the hot ``write(_:_:)`` never checks capacity. Example: after writing
/// 3 bits `101` then 7 bits `0000000`, `bitCount` is 10 and `bitBuffer` is `0b0000000_101`.
final class DeflaterBitWriter {
    /// Slack kept beyond every reservation: ``write(_:_:)`` stores 4 bytes at a time.
    private static let slack = 16

    private var storage: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Finished bytes in `storage`.
    private(set) var count = 0
    private var bitBuffer: UInt64 = 0
    private var bitCount = 0

    /// Makes an empty writer with room for about `initialCapacity` bytes.
    init(initialCapacity: Int) {
        capacity = max(initialCapacity, 64) + DeflaterBitWriter.slack
        storage = .allocate(capacity: capacity)
    }

    deinit { storage.deallocate() }

    /// Total bits written so far, finished or pending.
    var bitPosition: Int { count &* 8 &+ bitCount }

    /// Makes sure at least `bytes` more bytes (plus slack) fit without growing.
    func reserve(_ bytes: Int) {
        let needed = count + bitCount / 8 + bytes + DeflaterBitWriter.slack
        guard needed > capacity else { return }
        var newCapacity = capacity
        while newCapacity < needed { newCapacity = newCapacity * 2 }
        let newStorage = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newStorage.update(from: storage, count: count)
        storage.deallocate()
        storage = newStorage
        capacity = newCapacity
    }

    /// Appends the low `n` bits of `bits` (n ≤ 32; higher bits of `bits` must be zero).
    @inline(__always)
    func write(_ bits: UInt32, _ n: Int) {
        withCursor { $0.write(bits, n) }
    }

    /// Pads with zero bits to a byte boundary and moves every whole pending byte to `storage`.
    func alignToByte() {
        bitCount = (bitCount + 7) & ~7
        while bitCount > 0 {
            storage[count] = UInt8(truncatingIfNeeded: bitBuffer)
            count += 1
            bitBuffer >>= 8
            bitCount -= 8
        }
        bitBuffer = 0
    }

    /// Appends whole bytes; the writer must be byte-aligned (after ``alignToByte()``).
    func appendBytes(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        reserve(bytes.count)
        UnsafeMutableRawPointer(storage + count).copyMemory(from: base, byteCount: bytes.count)
        count += bytes.count
    }

    /// Appends one byte; the writer must be byte-aligned.
    func appendByte(_ byte: UInt8) {
        reserve(1)
        storage[count] = byte
        count += 1
    }

    /// The finished bytes (call ``alignToByte()`` first to include pending bits).
    func bytes() -> [UInt8] {
        Array(UnsafeBufferPointer(start: storage, count: count))
    }

    /// Runs `body` on the finished bytes (pending bits not included).
    func withFinishedBytes<Result, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> Result) throws(E) -> Result {
        try body(UnsafeRawBufferPointer(start: storage, count: count))
    }

    /// Drops the first `n` finished bytes, keeping the rest and the pending bits. Requires
    /// 0 ≤ n ≤ `count` (checked in debug builds; a release build clamps instead of trapping).
    func removeFirst(_ n: Int) {
        assert(n >= 0 && n <= count, "DeflaterBitWriter.removeFirst: \(n) of \(count) bytes")
        let n = min(max(n, 0), count)
        guard n > 0 else { return }
        (storage).update(from: storage + n, count: count - n)
        count -= n
    }

    /// Runs `body` with the writer's state in a local ``DeflaterBitCursor`` (registers instead of
    /// object fields in a hot loop) and takes the state back after. Room must be reserved.
    @inline(__always)
    func withCursor<Result>(_ body: (inout DeflaterBitCursor) -> Result) -> Result {
        var cursor = DeflaterBitCursor(output: storage + count, bitBuffer: bitBuffer, bitCount: bitCount)
        let result = body(&cursor)
        count = cursor.output - storage
        bitBuffer = cursor.bitBuffer
        bitCount = cursor.bitCount
        return result
    }
}

/// A ``DeflaterBitWriter``'s pending bits and output position as a value, for hot loops; the
/// same packing as ``DeflaterBitWriter/write(_:_:)``.
struct DeflaterBitCursor {
    var output: UnsafeMutablePointer<UInt8>
    var bitBuffer: UInt64
    var bitCount: Int

    /// Appends the low `n` bits of `bits` (n ≤ 32; higher bits of `bits` must be zero).
    @inline(__always)
    mutating func write(_ bits: UInt32, _ n: Int) {
        // Masking shifts: bitCount < 32, so no over-shift check is needed.
        bitBuffer |= UInt64(bits) &<< UInt64(truncatingIfNeeded: bitCount)
        bitCount &+= n
        if bitCount >= 32 {
            UnsafeMutableRawPointer(output).storeBytes(of: UInt32(truncatingIfNeeded: bitBuffer).littleEndian, as: UInt32.self)
            output += 4
            bitBuffer &>>= 32
            bitCount &-= 32
        }
    }
}
