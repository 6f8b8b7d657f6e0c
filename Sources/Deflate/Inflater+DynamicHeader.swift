extension Inflater {
    /// Reads a dynamic block header (RFC 1951 3.2.7) and builds its tables.
    /// Returns false when it needs more input; resumes where it stopped.
    func readDynamicHeader() throws -> Bool {
        if mode == .dynamicCounts {
            guard needBits(14) else { return false }
            literalCount = Int(takeBits(5)) + 257
            distanceCount = Int(takeBits(5)) + 1
            codeLengthCount = Int(takeBits(4)) + 4
            guard literalCount <= 286, distanceCount <= 30 else {
                throw fail(.invalidCodeLengths, "dynamic block declares \(literalCount) literal/length and \(distanceCount) distance codes; at most 286 and 30 exist")
            }
            for index in 0..<19 { codeLengths[index] = 0 }
            mode = .dynamicCodeLengthLengths(read: 0)
        }
        if case .dynamicCodeLengthLengths(var read) = mode {
            while read < codeLengthCount {
                guard needBits(3) else { mode = .dynamicCodeLengthLengths(read: read); return false }
                codeLengths[DeflateConstants.codeLengthOrder[read]] = UInt8(takeBits(3))
                read += 1
            }
            try buildTable(codeLengths, count: 19, .codeLength, into: codeLengthTable, what: "code-length")
            mode = .dynamicLengths(read: 0)
        }
        if case .dynamicLengths(var read) = mode {
            let total = literalCount + distanceCount
            let lengths = codeLengths + 19
            while read < total {
                if inputEnd - inputPosition >= Inflater.fastInputMargin {
                    read = try readCodeLengthsFast(lengths, from: read, total: total)
                    continue
                }
                pullAvailable()
                // Code-length codewords are at most 7 bits, so the 7-bit table has no subtables.
                let entry = codeLengthTable[Int(truncatingIfNeeded: bitBuffer & 0x7F)]
                let codeBits = Int(entry & HuffmanEntry.lengthMask)
                let symbol = Int(entry >> 16)
                let (extraBits, repeatBase): (Int, Int) = symbol < 16 ? (0, 1) : symbol == 16 ? (2, 3) : symbol == 17 ? (3, 3) : (7, 11)
                guard codeBits + extraBits <= bitCount else { mode = .dynamicLengths(read: read); return false }
                _ = takeBits(codeBits)
                let count = repeatBase + Int(takeBits(extraBits))
                let value: UInt8
                switch symbol {
                case 0..<16: value = UInt8(symbol)
                case 16:
                    guard read > 0 else {
                        throw fail(.invalidCodeLengths, "code-length repeat (16) with no previous length to repeat")
                    }
                    value = lengths[read - 1]
                default: value = 0
                }
                guard read + count <= total else {
                    throw fail(.invalidCodeLengths, "code-length repeat runs to \(read + count) lengths, past the \(total) declared")
                }
                Inflater.fillCodeLengths(lengths + read, value, count: count)
                read += count
            }
            guard lengths[256] != 0 else {
                throw fail(.invalidCodeLengths, "dynamic block has no code for end-of-block (symbol 256)")
            }
            try buildTable(lengths, count: literalCount, .literalLength, into: literalTable, what: "literal/length")
            // Worked out only if a small piece needs it (see ``endOfBlockCodewordOfThisBlock()``).
            endOfBlockLength = 0
            try buildTable(lengths + literalCount, count: distanceCount, .distance, into: distanceTable, what: "distance")
            tablesHoldFixedCodes = false
            mode = .huffmanData
        }
        return true
    }

    /// The code lengths from `read` on while at least 8 input bytes remain (the header's bulk):
    /// the twin of the careful loop in ``readDynamicHeader()`` with the bit buffer in registers and
    /// one unaligned 8-byte refill per symbol (the fast loop's, see ``decodeFast()``): a symbol and
    /// its extra bits take at most 7 + 7 bits of the 56...63 a refill leaves. Returns how many
    /// lengths are read; errors are thrown at the careful loop's offsets (after the symbol's bits).
    private func readCodeLengthsFast(_ lengths: UnsafeMutablePointer<UInt8>, from start: Int, total: Int) throws -> Int {
        var read = start
        var bits = bitBuffer
        var available = UInt64(truncatingIfNeeded: bitCount)
        var input = inputPosition
        let inputLimit = inputEnd - Inflater.fastInputMargin
        let table = UnsafePointer(codeLengthTable)
        // Stores the state back; drops the look-ahead bits above `available`.
        @inline(__always) func storeState() {
            bitBuffer = bits & ((1 &<< available) &- 1)
            bitCount = Int(truncatingIfNeeded: available)
            examinedCount &+= input - inputPosition
            inputPosition = input
        }
        @inline(__always) func take(_ count: UInt64) -> Int {
            let value = Int(truncatingIfNeeded: bits & ((1 &<< count) &- 1))
            bits &>>= count
            available &-= count
            return value
        }
        while read < total && input <= inputLimit {
            bits |= UInt64(littleEndian: UnsafeRawPointer(input).loadUnaligned(as: UInt64.self)) &<< available
            input += Int(truncatingIfNeeded: (63 &- available) &>> 3)
            available |= 56
            // Code-length codewords are at most 7 bits, so the 7-bit table has no subtables.
            let entry = table[Int(truncatingIfNeeded: bits & 0x7F)]
            let symbol = Int(truncatingIfNeeded: entry &>> 16)
            bits &>>= UInt64(truncatingIfNeeded: entry & HuffmanEntry.lengthMask)
            available &-= UInt64(truncatingIfNeeded: entry & HuffmanEntry.lengthMask)
            if symbol < 16 {
                lengths[read] = UInt8(truncatingIfNeeded: symbol)
                read &+= 1
                continue
            }
            // 16: 3–6 copies of the previous length; 17: 3–10 zeros; 18: 11–138 zeros.
            let count = symbol == 16 ? 3 &+ take(2) : symbol == 17 ? 3 &+ take(3) : 11 &+ take(7)
            var value: UInt8 = 0
            if symbol == 16 {
                guard read > 0 else {
                    storeState()
                    throw fail(.invalidCodeLengths, "code-length repeat (16) with no previous length to repeat")
                }
                value = lengths[read &- 1]
            }
            guard read &+ count <= total else {
                storeState()
                throw fail(.invalidCodeLengths, "code-length repeat runs to \(read + count) lengths, past the \(total) declared")
            }
            Inflater.fillCodeLengths(lengths + read, value, count: count)
            read &+= count
        }
        storeState()
        return read
    }

    /// Writes `count` (≥ 1) copies of `value` at `start` in 8-byte stores, up to 7 bytes past
    /// them: ``codeLengths`` keeps that slack (``codeLengthSlack``) after the last length, and
    /// the bytes past a repeat are lengths still to be read (or unused past the last).
    @inline(__always)
    static func fillCodeLengths(_ start: UnsafeMutablePointer<UInt8>, _ value: UInt8, count: Int) {
        let word = UInt64(value) &* 0x0101_0101_0101_0101
        var offset = 0
        repeat {
            UnsafeMutableRawPointer(start + offset).storeBytes(of: word, as: UInt64.self)
            offset &+= 8
        } while offset < count
    }

    private func buildTable(_ lengths: UnsafePointer<UInt8>, count: Int, _ alphabet: HuffmanAlphabet,
                            into table: UnsafeMutablePointer<UInt32>, what: String) throws {
        do {
            try HuffmanTableBuilder.build(lengths: lengths, count: count, alphabet: alphabet, into: table)
        } catch .oversubscribed {
            throw fail(.oversubscribedCode, "the \(what) code lengths describe more codes than fit (over-subscribed)")
        } catch {
            throw fail(.incompleteCode, "the \(what) code lengths leave codes unused (incomplete code)")
        }
    }
}
