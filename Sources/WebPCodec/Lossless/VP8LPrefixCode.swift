/// One canonical prefix code of VP8L (RFC 9649 section 3.7.2), as a two-level lookup table.
///
/// Codes are canonical (like DEFLATE's, RFC 1951 3.2.2) and read least significant bit first,
/// so the table is indexed by the next bits of the stream as read. Entries of `table` (UInt32):
/// bits 0–15 the symbol (or, for a link, the offset of the second-level table from this code's
/// start), bits 16–23 the code length to consume (for a link: the second-level index width),
/// bit 24 set for a link. Example: with root bits 8, a 10-bit code whose first 8 bits read as
/// 0x5A puts a link at `table[0x5A]`; its second-level entry holds length 10 - 8 = 2.
struct VP8LPrefixCode {
    /// Index width of the first-level table (libwebp uses 8 as well).
    static let rootBits = 8
    /// Longest code length VP8L allows (RFC 9649 3.7.2.1: lengths are 0–15).
    static let maxLength = 15
    static let linkFlag: UInt32 = 1 << 24

    /// Where this code's tables start in the shared entry storage.
    var start: Int
    /// The only symbol of a code with one used symbol (it takes zero bits), else nil.
    var singleSymbol: UInt16?

    /// Builds the tables for `lengths` (one per symbol of the alphabet, 0 = unused) and appends
    /// them to `storage`; nil when the lengths do not form a complete prefix code (libwebp's rule:
    /// over-subscribed, incomplete and empty codes are errors, one used symbol is a 0-bit code).
    static func build(lengths: UnsafeBufferPointer<UInt8>, into storage: inout [UInt32]) -> VP8LPrefixCode? {
        var countPerLength = [Int](repeating: 0, count: maxLength + 1)
        var used = 0
        var lastUsed = 0
        for (symbol, length) in lengths.enumerated() where length != 0 {
            guard Int(length) <= maxLength else { return nil }
            countPerLength[Int(length)] += 1
            used += 1
            lastUsed = symbol
        }
        guard used > 0 else { return nil }
        let start = storage.count
        if used == 1 {
            // A lone symbol is read with 0 bits, whatever its declared length.
            storage.append(contentsOf: repeatElement(UInt32(lastUsed), count: 1 << rootBits))
            return VP8LPrefixCode(start: start, singleSymbol: UInt16(lastUsed))
        }
        // Kraft sum: the code must be exactly complete.
        var open = 1
        for length in 1...maxLength {
            open = open * 2 - countPerLength[length]
            guard open >= 0 else { return nil }
        }
        guard open == 0 else { return nil }

        // Canonical codes (RFC 1951 3.2.2), then each stored bit-reversed for LSB-first lookup.
        var nextCode = [Int](repeating: 0, count: maxLength + 1)
        var code = 0
        for length in 1...maxLength {
            nextCode[length] = code
            code = (code + countPerLength[length]) << 1
        }

        // Second-level table width for each first-level slot: the longest code sharing that prefix.
        let rootSize = 1 << rootBits
        var subBits = [Int](repeating: 0, count: rootSize)
        var reversedCodes = [Int](repeating: 0, count: lengths.count)
        var codeCursor = nextCode
        for (symbol, lengthByte) in lengths.enumerated() where lengthByte != 0 {
            let length = Int(lengthByte)
            let reversed = reverseBits(codeCursor[length], length)
            codeCursor[length] += 1
            reversedCodes[symbol] = reversed
            if length > rootBits {
                let slot = reversed & (rootSize - 1)
                subBits[slot] = max(subBits[slot], length - rootBits)
            }
        }
        storage.append(contentsOf: repeatElement(0, count: rootSize))
        var subOffset = [Int](repeating: 0, count: rootSize)
        for slot in 0..<rootSize where subBits[slot] > 0 {
            subOffset[slot] = storage.count - start
            storage[start + slot] = linkFlag | UInt32(subBits[slot]) << 16 | UInt32(subOffset[slot])
            storage.append(contentsOf: repeatElement(0, count: 1 << subBits[slot]))
        }
        for (symbol, lengthByte) in lengths.enumerated() where lengthByte != 0 {
            let length = Int(lengthByte)
            let reversed = reversedCodes[symbol]
            if length <= rootBits {
                let entry = UInt32(length) << 16 | UInt32(symbol)
                var index = reversed
                while index < rootSize {
                    storage[start + index] = entry
                    index += 1 << length
                }
            } else {
                let slot = reversed & (rootSize - 1)
                let width = subBits[slot]
                let subLength = length - rootBits
                let entry = UInt32(subLength) << 16 | UInt32(symbol)
                var index = reversed >> rootBits
                while index < 1 << width {
                    storage[start + subOffset[slot] + index] = entry
                    index += 1 << subLength
                }
            }
        }
        return VP8LPrefixCode(start: start, singleSymbol: nil)
    }

    /// `value`'s low `length` bits in reverse order.
    private static func reverseBits(_ value: Int, _ length: Int) -> Int {
        var result = 0
        var v = value
        for _ in 0..<length {
            result = result << 1 | v & 1
            v >>= 1
        }
        return result
    }
}

extension VP8LBitReader {
    /// Reads one symbol of `code`, whose tables live in `entries`.
    @inline(__always)
    mutating func readSymbol(_ code: VP8LPrefixCode, _ entries: UnsafePointer<UInt32>) -> Int {
        if count < VP8LPrefixCode.maxLength { refill() }
        return readSymbolPrefilled(code, entries)
    }

    /// ``readSymbol(_:_:)`` when at least ``VP8LPrefixCode/maxLength`` bits are known to be
    /// buffered (or the window is exhausted, where the overrun check in ``skip(_:)`` still holds).
    /// A code with one symbol has a root table of that symbol with length 0, so it needs no
    /// special case here.
    @inline(__always)
    mutating func readSymbolPrefilled(_ code: VP8LPrefixCode, _ entries: UnsafePointer<UInt32>) -> Int {
        readSymbolPrefilled(table: entries + code.start)
    }

    /// ``readSymbolPrefilled(_:_:)`` with the code's tables already located (`entries + code.start`),
    /// as the pixel loop keeps them for the current group.
    @inline(__always)
    mutating func readSymbolPrefilled(table: UnsafePointer<UInt32>) -> Int {
        readSymbol(table: table, checked: true)
    }

    /// ``readSymbolPrefilled(table:)`` that leaves the overrun check to ``settleOverrun()``
    /// (``skipUnchecked(_:)``): the pixel loop checks once per pixel instead of once per code.
    @inline(__always)
    mutating func readSymbolUnchecked(table: UnsafePointer<UInt32>) -> Int {
        readSymbol(table: table, checked: false)
    }

    @inline(__always)
    private mutating func readSymbol(table: UnsafePointer<UInt32>, checked: Bool) -> Int {
        let peeked = UInt32(truncatingIfNeeded: bits)
        let entry = table[Int(peeked & 0xFF)]
        if entry & VP8LPrefixCode.linkFlag == 0 {
            let length = Int(entry &>> 16 & 0xFF)
            if checked { skip(length) } else { skipUnchecked(length) }
            return Int(entry & 0xFFFF)
        }
        let width = entry &>> 16 & 0xFF
        let sub = table[Int(entry & 0xFFFF) &+ Int(peeked &>> 8 & ((1 &<< width) &- 1))]
        let length = VP8LPrefixCode.rootBits &+ Int(sub &>> 16 & 0xFF)
        if checked { skip(length) } else { skipUnchecked(length) }
        return Int(sub & 0xFFFF)
    }
}
