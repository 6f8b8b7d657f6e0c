/// Reads the VP8L bitstream least-significant bit first (RFC 9649 section 3.2, "Reading bits")
/// from a window of input bytes, and can stop between symbols and resume on a later window.
///
/// Invariant: `bits` holds `count` unread bits in its low end (higher bits are zero or the
/// stream's following bits); bytes
/// `window[0 ..< position]` have been moved into `bits` or consumed. Example: after loading
/// bytes `0xB5 0x01` and reading 3 bits, `bits = 0x01B5 >> 3 = 0x36`, `count = 13`, `position = 2`.
/// Reading past the end of the window yields zero bits and sets ``overran``: the caller decides
/// whether that means "need more input" or "the chunk ends too early".
struct VP8LBitReader {
    /// Unread bits, least significant first.
    var bits: UInt64 = 0
    /// How many bits of ``bits`` are valid (0...64).
    var count = 0
    /// The bytes being read; replaced with ``attach(_:)`` on each resumption.
    private(set) var window = UnsafeRawBufferPointer(start: nil, count: 0)
    /// Next byte of ``window`` to load.
    private(set) var position = 0
    /// A read needed bits beyond the window's end.
    var overran = false

    /// Starts reading `window`, keeping the bits already loaded from earlier windows.
    mutating func attach(_ window: UnsafeRawBufferPointer) {
        self.window = window
        position = 0
    }

    /// Bits not yet read: in ``bits`` plus the unloaded rest of the window.
    var availableBits: Int { count + (window.count - position) * 8 }

    /// Loads whole bytes until at least 57 bits are buffered or the window is exhausted.
    ///
    /// With 8 bytes left in the window, one unaligned little-endian load does it: the bytes
    /// beyond the ones counted land above ``count`` and are the stream's next bits, so loading
    /// them again later ORs the same bits in (harmless). Near the window's end, byte by byte.
    @inline(__always)
    mutating func refill() {
        if count <= 56, position &+ 8 <= window.count, let base = window.baseAddress {
            let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: position, as: UInt64.self))
            bits |= word &<< UInt64(count)
            let loaded = (63 &- count) &>> 3
            position &+= loaded
            count &+= loaded &<< 3
            return
        }
        while count <= 56, position < window.count {
            bits |= UInt64(window[position]) << UInt64(count)
            position += 1
            count += 8
        }
    }

    /// The next `n` bits (n <= 32) without consuming them; zeros past the end.
    @inline(__always)
    mutating func peek(_ n: Int) -> UInt32 {
        if count < n { refill() }
        return UInt32(truncatingIfNeeded: bits & ((1 &<< UInt64(truncatingIfNeeded: n)) &- 1))
    }

    /// Drops `n` bits that were peeked.
    @inline(__always)
    mutating func skip(_ n: Int) {
        if n > count {
            overran = true
            bits = 0
            count = 0
        } else {
            bits &>>= UInt64(truncatingIfNeeded: n)  // every caller's n is at most 32: the masking shift is exact
            count &-= n
        }
    }

    /// ``skip(_:)`` without its overrun check, for up to 32 bits: ``count`` goes negative when
    /// the bits were not there. That only happens once the window is exhausted (a refill leaves
    /// fewer than 57 bits only then), where the bits above ``count`` are zero, so the codes read
    /// meanwhile see the same zeros ``skip(_:)`` would give them; ``settleOverrun()`` then
    /// records the overrun before anything else reads.
    @inline(__always)
    mutating func skipUnchecked(_ n: Int) {
        bits &>>= UInt64(truncatingIfNeeded: n)
        count &-= n
    }

    /// After ``skipUnchecked(_:)``: whether a read went past the window's end (then ``overran``
    /// is set and the reader left as ``skip(_:)`` leaves it). Reads checked by ``skip(_:)`` in
    /// between are the caller's to check.
    @inline(__always)
    mutating func settleOverrun() -> Bool {
        guard count < 0 else { return false }
        overran = true
        bits = 0
        count = 0
        return true
    }

    /// Reads `n` bits (0...32) as an unsigned number, first bit least significant.
    @inline(__always)
    mutating func read(_ n: Int) -> UInt32 {
        let value = peek(n)
        skip(n)
        return value
    }
}
