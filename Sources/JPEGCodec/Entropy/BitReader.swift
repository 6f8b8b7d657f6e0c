/// Reads entropy-coded bits MSB first, removing the 0x00 stuffed after every 0xFF data byte (T.81 F.1.2.3)
/// and, as libjpeg does, 0xFF fill bytes before it (0xFF 0xFF 0x00 is one 0xFF data byte).
///
/// `accumulator` holds the next bits left-aligned: with `bitCount` = 12, bits 63...52 are valid and the
/// rest are zero. The reader never consumes a marker: on 0xFF (and fill) then a non-zero byte it sets
/// ``markerReached`` and stops loading; later reads see zero bits, as libjpeg does, and `bitCount`
/// goes negative, which tells the scan decoder that invented bits were used.
///
/// `bytes` is the caller's buffer for one decoding batch; `position` indexes it and is rebased by the
/// caller between batches, while the accumulator carries over.
struct BitReader {
    /// Next bits, left-aligned.
    var accumulator: UInt64 = 0
    /// Valid bits in `accumulator`; negative once zero bits past a marker have been consumed.
    var bitCount = 0
    /// Index in `bytes` of the next byte to load.
    var position = 0
    /// The readable bytes of this batch.
    var bytes = UnsafeRawBufferPointer(start: nil, count: 0)
    /// A marker (or the end of all input) was reached; no more bytes will be loaded.
    var markerReached = false
    /// The end of the buffered bytes was reached without a marker. The scan decoder only decodes an
    /// MCU when this cannot happen (worst-case bytes present) unless the input is complete.
    var ranOutOfData = false

    /// Whether bits that were not in the stream (zeros past a marker) have been consumed.
    var usedInventedBits: Bool { bitCount < 0 }

    /// Loads bytes until at least 57 bits are valid or a marker stops it.
    @inline(__always)
    mutating func refill() {
        if markerReached { return }
        // Fast path: 8 bytes with no 0xFF among them load without per-byte checks.
        if position + 8 <= bytes.count {
            let word = UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: position, as: UInt64.self))
            // A byte equals 0xFF exactly when the complement has a zero byte (classic has-zero test).
            let inverted = ~word
            let hasFF = (inverted &- 0x0101_0101_0101_0101) & ~inverted & 0x8080_8080_8080_8080
            if hasFF == 0 {
                jpegInvariant(bitCount >= 0 && bitCount <= 56, "refill needs 0 ≤ bitCount ≤ 56, has \(bitCount)")
                let take = (63 - bitCount) >> 3        // whole bytes that fit: 7 when empty
                accumulator |= (word >> UInt64(64 - take * 8)) << UInt64(64 - take * 8 - bitCount)
                bitCount += take * 8
                position += take
                return
            }
        }
        self = refilledCarefully()
    }

    /// ``refill()`` for a caller that refills only below 32 valid bits (the lossless decoder, which
    /// refills before every sample): at least 4 bytes fit, so both shift counts are in 1...56 and
    /// masking shifts are exact; they cost a third of the checked ones (the DCT decoders, whose
    /// refills sit in other code, measured slower with this form, so they keep ``refill()``).
    @inline(__always)
    mutating func refillBelow32() {
        jpegInvariant(bitCount < 32, "refillBelow32 needs bitCount < 32, has \(bitCount)")
        if markerReached { return }
        if position + 8 <= bytes.count {
            let word = UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: position, as: UInt64.self))
            let inverted = ~word
            if (inverted &- 0x0101_0101_0101_0101) & ~inverted & 0x8080_8080_8080_8080 == 0 && bitCount >= 0 {
                let take = (63 - bitCount) >> 3
                let loaded = UInt64(truncatingIfNeeded: take &* 8)
                accumulator |= (word &>> (64 &- loaded)) &<< (64 &- loaded &- UInt64(truncatingIfNeeded: bitCount))
                bitCount &+= take &* 8
                position &+= take
                return
            }
        }
        self = refilledCarefully()
    }

    /// The byte-at-a-time twin of the fast path, handling stuffing, markers and the buffer end.
    /// It returns the new state rather than mutating in place, so callers' readers can stay in
    /// registers (an `inout` call would pin them to memory).
    @inline(never)
    func refilledCarefully() -> BitReader {
        var copy = self
        copy.refillByteByByte()
        return copy
    }

    /// Loads one byte at a time until 57 bits are valid or a marker or the buffer end stops it.
    @inline(__always)
    private mutating func refillByteByByte() {
        while bitCount <= 56 && !markerReached {
            guard position < bytes.count else {
                ranOutOfData = true
                markerReached = true
                return
            }
            let byte = bytes[position]
            if byte == 0xFF {
                // As libjpeg: any number of 0xFF fill bytes, then 0x00 (one 0xFF data byte) or a
                // marker's code, where the reader stops on the run's first 0xFF.
                var code = position + 1
                while code < bytes.count && bytes[code] == 0xFF { code += 1 }
                guard code < bytes.count else {
                    ranOutOfData = true
                    markerReached = true
                    return
                }
                if bytes[code] != 0 {
                    markerReached = true
                    return
                }
                position = code + 1
            } else {
                position += 1
            }
            accumulator |= UInt64(byte) << UInt64(56 - bitCount)
            bitCount += 8
        }
    }

    /// Drops `count` (0...32) bits.
    @inline(__always)
    mutating func consume(_ count: Int) {
        // count ≤ 32, so the masking shift is exact and bitCount stays far from overflow.
        jpegInvariant(count >= 0 && count <= 32, "consume takes 0...32 bits, asked \(count)")
        accumulator &<<= UInt64(truncatingIfNeeded: count)
        bitCount &-= count
    }

    /// The next `count` (1...32) bits as an unsigned value, without consuming them.
    @inline(__always)
    func peek(_ count: Int) -> Int {
        // 1 ≤ count ≤ 32: the masking shift is exact.
        jpegInvariant(count >= 1 && count <= 32, "peek takes 1...32 bits, asked \(count)")
        return Int(truncatingIfNeeded: accumulator &>> UInt64(truncatingIfNeeded: 64 &- count))
    }

    /// Bits a Huffman read may consume: a valid code has at most 16, and a bit pattern that is no
    /// code consumes 17 (see ``decodeLongSymbol(_:_:)``). Readers refill below this many bits, so
    /// the 17th bit of a bad code is read from the stream and not taken for a bit past the data.
    static let symbolReadBits = 17

    /// Decodes one Huffman symbol (T.81 F.2.2.3); returns -1 for a bit pattern that is no code.
    @inline(__always)
    mutating func decodeSymbol(_ table: HuffmanLookup) -> Int {
        if bitCount < Self.symbolReadBits { refill() }
        let (symbol, length) = Self.symbol(atTopOf: accumulator, table)
        consume(length)
        return symbol
    }

    /// The symbol whose code starts the bits of `accumulator`, and the code's length: one table
    /// read for codes up to 9 bits, ``decodeLongSymbol(_:_:)`` otherwise. Takes the bits by value
    /// so callers' readers can stay in registers.
    @inline(__always)
    static func symbol(atTopOf accumulator: UInt64, _ table: HuffmanLookup) -> (symbol: Int, length: Int) {
        let entry = table.lookup[Int(truncatingIfNeeded: accumulator &>> UInt64(64 - HuffmanTable.lookaheadBits))]
        if entry != 0 { return (Int(entry & 0xFF), Int(entry >> 8)) }
        return decodeLongSymbol(accumulator, table)
    }

    /// Codes longer than the lookahead: compare against `maxCode` length by length. Returns the
    /// symbol (-1 for no code) and the bits to consume; takes the bits by value (see `refilledCarefully`).
    @inline(never)
    static func decodeLongSymbol(_ accumulator: UInt64, _ table: HuffmanLookup) -> (symbol: Int, length: Int) {
        var length = HuffmanTable.lookaheadBits + 1
        while length <= 16 {
            let code = Int(truncatingIfNeeded: accumulator >> UInt64(64 - length))
            if code <= Int(table.maxCode[length]) {
                return (Int(table.symbols[(code + Int(table.valueOffset[length])) & 0xFF]), length)
            }
            length += 1
        }
        // No code: libjpeg reads one more bit (to its sentinel length 17) and fakes symbol 0;
        // consuming the same 17 bits keeps corrupt data decoding to libjpeg's picture.
        return (-1, 17)
    }

    /// Reads `size` (1...15) extra bits and sign-extends them (T.81 F.2.2.1, EXTEND).
    @inline(__always)
    mutating func receiveExtended(_ size: Int) -> Int32 {
        if bitCount < size { refill() }
        let raw = Int32(truncatingIfNeeded: peek(size))
        consume(size)
        return Self.extend(raw, size: size)
    }

    /// EXTEND (T.81 F.2.2.1): `size` raw bits below 2^(size-1) stand for negative values, v − 2^size + 1.
    @inline(__always)
    static func extend(_ raw: Int32, size: Int) -> Int32 {
        raw < Int32(1) &<< Int32(size - 1) ? raw &- (Int32(1) &<< Int32(size)) &+ 1 : raw
    }

    /// Discards the buffered bits (at a restart marker or the end of a scan); returns the whole
    /// bytes that were dropped, which libjpeg counts as extraneous data.
    mutating func discardBits() -> Int {
        let wholeBytes = max(bitCount, 0) >> 3
        accumulator = 0
        bitCount = 0
        return wholeBytes
    }
}
