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
                for index in read..<(read + count) { lengths[index] = value }
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
