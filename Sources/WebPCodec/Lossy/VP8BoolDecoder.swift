/// The boolean entropy decoder of VP8 (RFC 6386 section 7), over one partition of the data.
///
/// State as in RFC 6386 7.3 with a wider window: `value` holds the undecoded bits, of which the
/// top 8 above `bitCount` are compared with `split`; `range` is in 128...255 between calls.
/// Example: just after start, one byte 0xA5 is loaded: value = 0xA5, bitCount = 0, range = 255.
///
/// Past the partition's end the decoder reads zero bytes and sets ``endOfData`` (libwebp does
/// the same). If the partition has not all arrived yet, reading past the bytes received sets
/// ``starved`` instead: the caller throws the work away and retries with more input.
struct VP8BoolDecoder {
    private var value: UInt64 = 0
    private var range: UInt32 = 255
    /// Bits of `value` below the 8 compared; negative means a byte must be loaded first.
    private var bitCount = -8
    /// Next byte to load (index into the frame's data).
    private(set) var position: Int
    /// End of the partition in the frame's data.
    let end: Int
    /// Read past the partition's end (zeros were supplied).
    private(set) var endOfData = false
    /// Read past the bytes received while the partition is not complete.
    private(set) var starved = false

    init(start: Int, end: Int) {
        position = start
        self.end = end
    }

    /// Loads the next bytes from `data` (whose first `received` bytes have arrived): seven at once
    /// (libwebp's 56-bit refill) when eight are readable inside the partition, else one.
    @inline(__always)
    private mutating func load(_ data: UnsafePointer<UInt8>, _ received: Int) {
        if position &+ 8 <= min(end, received) {
            // Requires bitCount < 0: value then holds fewer than 8 bits, so 56 more fit.
            let word = UnsafeRawPointer(data + position).loadUnaligned(as: UInt64.self)
            value = value &<< 56 | UInt64(bigEndian: word) &>> 8
            position &+= 7
            bitCount &+= 56
        } else {
            loadByte(data, received)
        }
    }

    /// Loads one byte, or a zero byte past the partition's end or the bytes received.
    /// Inlined like the rest: a call that takes the decoder's address would keep its state in
    /// memory (stored back after every bool) wherever the decoder is used.
    @inline(__always)
    private mutating func loadByte(_ data: UnsafePointer<UInt8>, _ received: Int) {
        if position < end {
            if position < received {
                value = value << 8 | UInt64(data[position])
            } else {
                starved = true
                value <<= 8
            }
            position += 1
        } else {
            endOfData = true
            value <<= 8
        }
        bitCount += 8
    }

    /// Decodes one bool whose probability of being 0 is `probability / 256` (RFC 6386 7.3).
    @inline(__always)
    mutating func readBool(_ probability: Int, _ data: UnsafePointer<UInt8>, _ received: Int) -> Bool {
        let bit = decide(probability, data, received)
        renormalise(by: range.leadingZeroBitCount &- 24)
        return bit
    }

    /// ``readBool(_:_:_:)`` with the renormalising shift looked up in `shifts`
    /// (``renormalisingShifts``, 256 entries): one load instead of a leading-zero count, which
    /// baseline x86-64 (no `lzcnt`) does in four instructions. For the token loop.
    @inline(__always)
    mutating func readBool(_ probability: Int, _ data: UnsafePointer<UInt8>, _ received: Int,
                           shifts: UnsafePointer<UInt8>) -> Bool {
        let bit = decide(probability, data, received)
        // `range` is 1…255 here (see `decide`), inside the 256-entry table.
        assert(range >= 1 && range <= 255, "boolean decoder range \(range) outside 1…255")
        renormalise(by: Int(shifts[Int(range)]))
        return bit
    }

    /// The shift that brings each `range` of 1…255 to 128…255 (entry 0, never used, is 0).
    static let renormalisingShifts: [UInt8] = (0..<256).map { $0 == 0 ? 0 : UInt8(UInt32($0).leadingZeroBitCount - 24) }

    /// The comparison of RFC 6386 7.3 without the renormalisation: afterwards `range` is the
    /// chosen part, 1…255 (the split lies in 1…range − 1 because range ≥ 128 and probability
    /// ≤ 255). After a load 0 <= bitCount <= 55 and range <= 255, so every shift and sum below
    /// stays in range: wrapping operators only spare the overflow checks.
    @inline(__always)
    private mutating func decide(_ probability: Int, _ data: UnsafePointer<UInt8>, _ received: Int) -> Bool {
        if bitCount < 0 { load(data, received) }
        let split = 1 &+ (((range &- 1) &* UInt32(truncatingIfNeeded: probability)) &>> 8)
        let window = UInt32(truncatingIfNeeded: value &>> UInt64(truncatingIfNeeded: bitCount))
        if window >= split {
            range &-= split
            value &-= UInt64(split) &<< UInt64(truncatingIfNeeded: bitCount)
            return true
        }
        range = split
        return false
    }

    /// Renormalise so that range >= 128 (RFC 6386 7.3, the shift loop, done at once).
    @inline(__always)
    private mutating func renormalise(by shift: Int) {
        range &<<= UInt32(truncatingIfNeeded: shift)
        bitCount &-= shift
    }

    /// ``readBool(_:_:_:shifts:)`` as 0 or 1.
    @inline(__always)
    mutating func readBit(_ probability: Int, _ data: UnsafePointer<UInt8>, _ received: Int,
                          shifts: UnsafePointer<UInt8>) -> Int {
        readBool(probability, data, received, shifts: shifts) ? 1 : 0
    }

    /// An unsigned `count`-bit number, most significant bit first, each bit at probability 1/2
    /// (RFC 6386 section 19.1 `L(n)`).
    mutating func readLiteral(_ count: Int, _ data: UnsafePointer<UInt8>, _ received: Int) -> Int {
        var result = 0
        for _ in 0..<count { result = result << 1 | (readBool(128, data, received) ? 1 : 0) }
        return result
    }

    /// A `count`-bit magnitude followed by a sign bit (RFC 6386 9.3 and 9.6 signed fields).
    mutating func readSignedLiteral(_ count: Int, _ data: UnsafePointer<UInt8>, _ received: Int) -> Int {
        let magnitude = readLiteral(count, data, received)
        return readBool(128, data, received) ? -magnitude : magnitude
    }

    /// A flag, then the literal if the flag is set (else 0).
    mutating func readOptionalSigned(_ count: Int, _ data: UnsafePointer<UInt8>, _ received: Int) -> Int {
        readBool(128, data, received) ? readSignedLiteral(count, data, received) : 0
    }
}
