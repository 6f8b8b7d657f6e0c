/// What one careful decoding step reached.
enum CarefulStep {
    case token
    case endOfBlock
    case needInput
}

extension Inflater {
    /// Decodes one whole literal or match, or nothing: it first checks that every bit of the
    /// token is buffered and consumes only then, so it can stop between any two tokens.
    /// The careful twin of ``decodeFast()``: same tables, same order of steps.
    /// Requires 258 bytes of output room (the caller makes room first).
    func decodeTokenCarefully() throws -> CarefulStep {
        pullAvailable()
        let bits = bitBuffer, available = bitCount
        guard let (entry, prefix) = peek(literalTable, mainBits: 11, bits: bits, available: available) else { return .needInput }
        var used = prefix + Int(entry & HuffmanEntry.lengthMask)
        switch entry & HuffmanEntry.kindMask {
        case HuffmanEntry.literal:
            if outputPosition + 1 > outputLimitPosition { throw outputLimitError(at: currentOffset) }
            _ = takeBits(used)
            window[outputPosition] = UInt8(truncatingIfNeeded: entry >> 16)
            outputPosition += 1
            return .token
        case HuffmanEntry.endOfBlock:
            _ = takeBits(used)
            return .endOfBlock
        case HuffmanEntry.base:
            break
        default:
            throw fail(.invalidSymbol, "literal/length symbol \(entry >> 16) is not allowed (only 0–285 exist)")
        }
        // A base entry's bits include its extra bits, so this one check covers the whole length.
        guard used <= available else { return .needInput }
        let length = Int(entry >> 16) + extraBits(of: entry, in: bits &>> UInt64(prefix))
        guard let (distanceEntry, distancePrefix) = peek(distanceTable, mainBits: 8, bits: bits &>> UInt64(used),
                                                          available: available - used) else { return .needInput }
        guard distanceEntry & HuffmanEntry.kindMask == HuffmanEntry.base else {
            throw fail(.invalidSymbol, "distance symbol is not allowed (30, 31, or a code the block did not define)")
        }
        let distanceStart = used + distancePrefix
        used = distanceStart + Int(distanceEntry & HuffmanEntry.lengthMask)
        guard used <= available else { return .needInput }
        let distance = Int(distanceEntry >> 16) + extraBits(of: distanceEntry, in: bits &>> UInt64(distanceStart))
        guard distance <= outputPosition else {
            throw fail(.distanceTooFar, "match distance \(distance) reaches before the start of the output (\(outputPosition) bytes back available)")
        }
        if outputPosition + length > outputLimitPosition { throw outputLimitError(at: currentOffset) }
        _ = takeBits(used)
        let destination = window + outputPosition
        let source = destination - distance
        for index in 0..<length { destination[index] = source[index] }
        outputPosition += length
        return .token
    }

    /// The extra bits of a length or distance entry, from bits that start at its codeword (0
    /// for an entry whose value is exact, see ``HuffmanEntry/hasExtraBits``).
    @inline(__always)
    func extraBits(of entry: UInt32, in bits: UInt64) -> Int {
        guard entry & HuffmanEntry.hasExtraBits != 0 else { return 0 }
        let total = UInt64(entry & HuffmanEntry.lengthMask)
        return Int(truncatingIfNeeded: (bits & ((1 &<< total) &- 1)) &>> UInt64((entry >> 8) & HuffmanEntry.codewordMask))
    }

    /// Looks up the entry for the next codeword without consuming. Returns the entry and the bits
    /// before it (the main table's bits for a subtable entry, else 0), or nil if the codeword is
    /// not wholly buffered (a length or distance may still lack its extra bits: the caller checks).
    @inline(__always)
    private func peek(_ table: UnsafeMutablePointer<UInt32>, mainBits: Int, bits: UInt64, available: Int) -> (UInt32, Int)? {
        var entry = table[Int(truncatingIfNeeded: bits & ((1 &<< UInt64(mainBits)) &- 1))]
        var prefix = 0
        if entry & HuffmanEntry.kindMask == HuffmanEntry.link {
            guard mainBits <= available else { return nil }
            let subBits = UInt64((entry >> 8) & 0xF)
            entry = table[Int(entry >> 16) + Int(truncatingIfNeeded: (bits &>> UInt64(mainBits)) & ((1 &<< subBits) &- 1))]
            prefix = mainBits
        }
        let codeword = entry & HuffmanEntry.kindMask == HuffmanEntry.base
            ? Int((entry >> 8) & HuffmanEntry.codewordMask) : Int(entry & HuffmanEntry.lengthMask)
        guard prefix + codeword <= available else { return nil }
        return (entry, prefix)
    }
}
