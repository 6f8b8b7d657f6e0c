/// Why ``Inflater/decodeBufferedTokens()`` stopped.
enum BufferedStop {
    /// The next token is not wholly buffered: the call's input is used up.
    case needInput
    case endOfBlock
    /// The output limits are near, or the next token is one the careful twin must judge (an
    /// invalid symbol or distance).
    case handOver
}

extension Inflater {
    /// Decodes whole tokens from the bit buffer and the last few (< 8) input bytes of a call:
    /// what small pieces of input (a network delivering a byte at a time) go through.
    ///
    /// The careful twin ``decodeTokenCarefully()`` returns after each token and checks each
    /// codeword; this loop keeps the state in locals across tokens and checks once per token
    /// that all its bits are buffered, which is enough: bits above the buffered count are zero,
    /// and a table entry found with zeros in place of missing bits is longer than what is
    /// buffered (so the token waits) unless every bit it uses is real. Anything unusual (an
    /// invalid symbol or distance, the output limits) is handed to the careful twin, so errors and
    /// their offsets stay the twin's. Runs while a whole match (plus the copy's slack) fits.
    ///
    /// Requires fewer than ``fastInputMargin`` input bytes (the fast loop takes more). The input
    /// goes into the bit buffer first (up to 63 bits), then tokens are decoded from the bits alone
    /// until one is incomplete, and only then is more input pulled: a byte-at-a-time caller's
    /// byte is one shift-or, and each token costs a lookup and one completeness check.
    /// `outputLimit` is ``fastLoopOutputLimit`` (the caller has it at hand).
    func decodeBufferedTokens(outputLimit: Int) -> BufferedStop {
        var bits = bitBuffer
        var available = UInt64(bitCount)
        var input = inputPosition
        let end = inputEnd
        let output = window
        var position = outputPosition
        let literals = UnsafePointer(literalTable)
        let distances = UnsafePointer(distanceTable)
        var stop = BufferedStop.handOver

        refilling: while true {
            while available <= 56 && input < end {
                bits |= UInt64(input.pointee) &<< available
                available &+= 8
                input += 1
            }
            while position <= outputLimit {
                var entry = literals[Int(truncatingIfNeeded: bits & 0x7FF)]
                // Literals first, with the fewest steps (a main-table literal has no link).
                if entry & HuffmanEntry.kindMask == HuffmanEntry.literal {
                    let length = UInt64(entry & HuffmanEntry.lengthMask)
                    if length > available { if input < end { continue refilling }; stop = .needInput; break refilling }
                    bits &>>= length
                    available &-= length
                    output[position] = UInt8(truncatingIfNeeded: entry &>> 16)
                    position &+= 1
                    continue
                }
                var prefix: UInt64 = 0
                if entry & HuffmanEntry.kindMask == HuffmanEntry.link {
                    prefix = 11
                    entry = HuffmanEntry.subtableEntry(literals, link: entry, bitsAfterMain: bits &>> 11)
                }
                let used = prefix &+ UInt64(entry & HuffmanEntry.lengthMask)
                // Incomplete: more input if there is any (the bit buffer has room, as a token
                // takes at most 48 bits), else wait for the next call.
                if used > available { if input < end { continue refilling }; stop = .needInput; break refilling }
                let kind = entry & HuffmanEntry.kindMask
                if kind == HuffmanEntry.literal {
                    bits &>>= used
                    available &-= used
                    output[position] = UInt8(truncatingIfNeeded: entry &>> 16)
                    position &+= 1
                    continue
                }
                if kind == HuffmanEntry.endOfBlock {
                    bits &>>= used
                    available &-= used
                    stop = .endOfBlock
                    break refilling
                }
                guard kind == HuffmanEntry.base else { break refilling }
                let length = Int(truncatingIfNeeded: entry &>> 16) &+ extraBits(of: entry, in: bits &>> prefix)

                let rest = bits &>> used
                var distanceEntry = distances[Int(truncatingIfNeeded: rest & 0xFF)]
                var distancePrefix: UInt64 = 0
                if distanceEntry & HuffmanEntry.kindMask == HuffmanEntry.link {
                    distancePrefix = 8
                    distanceEntry = HuffmanEntry.subtableEntry(distances, link: distanceEntry, bitsAfterMain: rest &>> 8)
                }
                let total = used &+ distancePrefix &+ UInt64(distanceEntry & HuffmanEntry.lengthMask)
                if total > available { if input < end { continue refilling }; stop = .needInput; break refilling }
                guard distanceEntry & HuffmanEntry.kindMask == HuffmanEntry.base else { break refilling }
                let distance = Int(truncatingIfNeeded: distanceEntry &>> 16) &+ extraBits(of: distanceEntry, in: rest &>> distancePrefix)
                guard distance <= position else { break refilling }
                bits &>>= total
                available &-= total
                copyMatch(to: output + position, distance: distance, length: length)
                position &+= length
            }
            break
        }

        bitBuffer = bits
        bitCount = Int(truncatingIfNeeded: available)
        inputBytesExamined &+= input - inputPosition
        inputPosition = input
        outputPosition = position
        return stop
    }
}
