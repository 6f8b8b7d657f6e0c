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
        guard let (entry, codeBits) = peek(literalTable, mainBits: 11, bits: bits, available: available) else { return .needInput }
        var used = codeBits
        switch entry & HuffmanEntry.kindMask {
        case HuffmanEntry.literal:
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
        let lengthExtra = Int((entry >> 8) & 0xF)
        guard used + lengthExtra <= available else { return .needInput }
        let length = Int(entry >> 16) + Int((bits &>> UInt64(used)) & ((1 &<< UInt64(lengthExtra)) &- 1))
        used += lengthExtra
        guard let (distanceEntry, distanceBits) = peek(distanceTable, mainBits: 8, bits: bits &>> UInt64(used),
                                                        available: available - used) else { return .needInput }
        guard distanceEntry & HuffmanEntry.kindMask == HuffmanEntry.base else {
            throw fail(.invalidSymbol, "distance symbol is not allowed (30, 31, or a code the block did not define)")
        }
        used += distanceBits
        let distanceExtra = Int((distanceEntry >> 8) & 0xF)
        guard used + distanceExtra <= available else { return .needInput }
        let distance = Int(distanceEntry >> 16) + Int((bits &>> UInt64(used)) & ((1 &<< UInt64(distanceExtra)) &- 1))
        used += distanceExtra
        guard distance <= outputPosition else {
            throw fail(.distanceTooFar, "match distance \(distance) reaches before the start of the output (\(outputPosition) bytes back available)")
        }
        _ = takeBits(used)
        let destination = window + outputPosition
        let source = destination - distance
        for index in 0..<length { destination[index] = source[index] }
        outputPosition += length
        return .token
    }

    /// Looks up the entry for the next codeword without consuming: nil if not all its bits are buffered.
    @inline(__always)
    private func peek(_ table: UnsafeMutablePointer<UInt32>, mainBits: Int, bits: UInt64, available: Int) -> (UInt32, Int)? {
        var entry = table[Int(truncatingIfNeeded: bits & ((1 &<< UInt64(mainBits)) &- 1))]
        var length = Int(entry & HuffmanEntry.lengthMask)
        if entry & HuffmanEntry.kindMask == HuffmanEntry.link {
            guard mainBits <= available else { return nil }
            let subBits = UInt64((entry >> 8) & 0xF)
            entry = table[Int(entry >> 16) + Int(truncatingIfNeeded: (bits &>> UInt64(mainBits)) & ((1 &<< subBits) &- 1))]
            length = mainBits + Int(entry & HuffmanEntry.lengthMask)
        }
        guard length <= available else { return nil }
        return (entry, length)
    }
}
