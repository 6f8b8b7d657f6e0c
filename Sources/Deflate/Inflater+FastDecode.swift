extension Inflater {
    /// Decodes tokens while at least 8 input bytes and 290 bytes of output room remain.
    /// Returns true at the end of the block, false when it stopped for input or output room.
    ///
    /// Each iteration refills the bit buffer with one unaligned 8-byte load (so 56...63 bits are
    /// buffered) and then decodes a whole token without checks: a token takes at most
    /// 15 + 5 + 15 + 13 = 48 bits. Matches are copied 16 bytes at a time when the distance is at
    /// least 16 (8 when at least 8), writing up to 31 bytes past the match into the window's slack.
    /// The careful twin is ``decodeTokenCarefully()``.
    func decodeFast() throws -> Bool {
        var bits = bitBuffer
        var available = UInt64(bitCount)
        var input = inputPosition
        let inputLimit = inputEnd - Inflater.fastInputMargin
        let output = window
        var position = outputPosition
        let outputLimit = fastLoopOutputLimit
        let literals = UnsafePointer(literalTable)
        let distances = UnsafePointer(distanceTable)
        // Bits of the current token already consumed when a problem is found: error offsets point
        // at the token's first bit, as the careful path's do, whatever the chunking.
        var consumedInToken: UInt64 = 0
        // Why the loop stopped (a plain integer, so nothing is built inside the loop; the error
        // is made after it) and the value that disagreed.
        var exit = FastExit.limits
        var badValue = 0

        // Branchless refill: after it, 56...63 bits are valid; bits above `available` are the
        // next input bytes, which the next refill ORs in again unchanged. So `bits` always holds
        // the next 64 - (bits consumed since the last refill) input bits, and the entry of the next
        // token can be looked up as soon as the current token's bits are consumed (a token takes
        // at most 48 bits, leaving at least the 11 the lookup needs): the lookup's latency then
        // overlaps the literal store or the match copy instead of following the refill.
        @inline(__always) func refill() {
            bits |= UInt64(littleEndian: UnsafeRawPointer(input).loadUnaligned(as: UInt64.self)) &<< available
            input += Int(truncatingIfNeeded: (63 &- available) &>> 3)
            available |= 56
        }
        var entry: UInt32 = 0
        if input <= inputLimit {
            refill()
            entry = literals[Int(truncatingIfNeeded: bits & 0x7FF)]
        }

        while input <= inputLimit && position <= outputLimit {
            refill()
            var linkBits: UInt64 = 0
            // Literals (kind 0) and lengths (kind 1) are the common cases: one compare sends the
            // rest (end of block, link, invalid) aside, so no jump table dispatches on the kind.
            if entry & HuffmanEntry.kindMask > HuffmanEntry.base && entry & HuffmanEntry.kindMask == HuffmanEntry.link {
                bits &>>= 11
                available &-= 11
                linkBits = 11
                entry = HuffmanEntry.subtableEntry(literals, link: entry, bitsAfterMain: bits)
            }
            let kind = entry & HuffmanEntry.kindMask
            if kind == HuffmanEntry.literal {
                bits &>>= UInt64(entry & HuffmanEntry.lengthMask)
                available &-= UInt64(entry & HuffmanEntry.lengthMask)
                output[position] = UInt8(truncatingIfNeeded: entry &>> 16)
                position &+= 1
                // Literals come in runs: with >= 41 bits left after the first (56 - 15), two more
                // literals of at most 15 bits each fit without a refill. A non-literal is
                // decoded again after the next refill, which guarantees the 48 bits a match needs.
                entry = literals[Int(truncatingIfNeeded: bits & 0x7FF)]
                if entry & HuffmanEntry.kindMask == HuffmanEntry.literal {
                    bits &>>= UInt64(entry & HuffmanEntry.lengthMask)
                    available &-= UInt64(entry & HuffmanEntry.lengthMask)
                    output[position] = UInt8(truncatingIfNeeded: entry &>> 16)
                    position &+= 1
                    entry = literals[Int(truncatingIfNeeded: bits & 0x7FF)]
                    if entry & HuffmanEntry.kindMask == HuffmanEntry.literal {
                        bits &>>= UInt64(entry & HuffmanEntry.lengthMask)
                        available &-= UInt64(entry & HuffmanEntry.lengthMask)
                        output[position] = UInt8(truncatingIfNeeded: entry &>> 16)
                        position &+= 1
                        entry = literals[Int(truncatingIfNeeded: bits & 0x7FF)]
                    }
                }
                continue
            }
            if kind != HuffmanEntry.base {
                if kind == HuffmanEntry.endOfBlock {
                    bits &>>= UInt64(entry & HuffmanEntry.lengthMask)
                    available &-= UInt64(entry & HuffmanEntry.lengthMask)
                    exit = .endOfBlock
                    break
                }
                exit = .invalidLiteralLength
                badValue = Int(truncatingIfNeeded: entry &>> 16)
                consumedInToken = linkBits
                break
            }
            // A length: codeword and extra bits go in one step (see HuffmanEntry).
            var saved = bits
            var total = UInt64(entry & HuffmanEntry.lengthMask)
            bits &>>= total
            available &-= total
            let length = Int(truncatingIfNeeded: entry &>> 16) &+
                Int(truncatingIfNeeded: (saved & ((1 &<< total) &- 1)) &>> UInt64((entry &>> 8) & HuffmanEntry.codewordMask))

            var distanceEntry = distances[Int(truncatingIfNeeded: bits & 0xFF)]
            var distanceLinkBits: UInt64 = 0
            if distanceEntry & HuffmanEntry.kindMask == HuffmanEntry.link {
                bits &>>= 8
                available &-= 8
                distanceLinkBits = 8
                distanceEntry = HuffmanEntry.subtableEntry(distances, link: distanceEntry, bitsAfterMain: bits)
            }
            guard distanceEntry & HuffmanEntry.kindMask == HuffmanEntry.base else {
                exit = .invalidDistance
                consumedInToken = linkBits &+ total &+ distanceLinkBits
                break
            }
            saved = bits
            total = UInt64(distanceEntry & HuffmanEntry.lengthMask)
            bits &>>= total
            available &-= total
            let distance = Int(truncatingIfNeeded: distanceEntry &>> 16) &+
                Int(truncatingIfNeeded: (saved & ((1 &<< total) &- 1)) &>> UInt64((distanceEntry &>> 8) & HuffmanEntry.codewordMask))
            guard distance <= position else {
                exit = .distanceTooFar
                badValue = distance
                consumedInToken = linkBits &+ UInt64(entry & HuffmanEntry.lengthMask) &+ distanceLinkBits &+ total
                break
            }
            entry = literals[Int(truncatingIfNeeded: bits & 0x7FF)]
            copyMatch(to: output + position, distance: distance, length: length)
            position &+= length
        }

        // Store the state back; drop the look-ahead bits above `available` (see the refill).
        bitBuffer = bits & ((1 &<< available) &- 1)
        bitCount = Int(truncatingIfNeeded: available)
        inputBytesExamined &+= input - inputPosition
        inputPosition = input
        outputPosition = position
        switch exit {
        case .limits: return false
        case .endOfBlock: return true
        case .invalidLiteralLength, .invalidDistance, .distanceTooFar:
            // The byte holding the token's first bit.
            let tokenStart = totalIn - Int(truncatingIfNeeded: (available &+ consumedInToken &+ 7) &>> 3)
            throw fastLoopError(exit, badValue, at: tokenStart)
        }
    }

    /// The error for a problem the fast loop stopped at (built outside the loop).
    @inline(never)
    private func fastLoopError(_ exit: FastExit, _ value: Int, at offset: Int) -> InflateError {
        switch exit {
        case .invalidLiteralLength:
            return fail(.invalidSymbol, "literal/length symbol \(value) is not allowed (only 0–285 exist)", at: offset)
        case .invalidDistance:
            return fail(.invalidSymbol, "distance symbol is not allowed (30, 31, or a code the block did not define)", at: offset)
        default:
            return fail(.distanceTooFar, "match distance \(value) reaches before the start of the output (\(outputPosition) bytes back available)", at: offset)
        }
    }

    /// Copies an LZ77 match inside the window, 16 or 8 bytes at a time, writing up to 31 bytes
    /// past the match (the window keeps 290 bytes of slack beyond the fast loop's limit).
    ///
    /// A chunk of n bytes at `to` reads from `to - step` with `step >= n`, so it only reads bytes
    /// already final. For a distance of at least 8 the step is the distance; a shorter distance repeats a
    /// pattern, so after the first 8 bytes are written one by one the step is the smallest multiple
    /// of the distance that is at least 8 (2 → 8, 3 → 9, … 7 → 14), which repeats the same pattern.
    @inline(__always)
    func copyMatch(to destination: UnsafeMutablePointer<UInt8>, distance: Int, length: Int) {
        var to = UnsafeMutableRawPointer(destination)
        let end = to + length
        var step = distance
        if distance < 8 {
            if distance == 1 {
                destination.update(repeating: (destination - 1).pointee, count: length)
                return
            }
            let source = destination - distance
            for index in 0..<8 { destination[index] = source[index] }
            to += 8
            while step < 8 { step &+= distance }
        } else if distance >= 16 {
            // 16-byte chunks; most matches are short: two chunks cover lengths up to 32 without a loop.
            to.storeBytes(of: (to - step).loadUnaligned(as: SIMD16<UInt8>.self), as: SIMD16<UInt8>.self)
            (to + 16).storeBytes(of: (to + 16 - step).loadUnaligned(as: SIMD16<UInt8>.self), as: SIMD16<UInt8>.self)
            to += 32
            while to < end {
                to.storeBytes(of: (to - step).loadUnaligned(as: SIMD16<UInt8>.self), as: SIMD16<UInt8>.self)
                to += 16
            }
            return
        } else {
            // Two 8-byte chunks cover lengths up to 16 without a loop.
            to.storeBytes(of: (to - step).loadUnaligned(as: UInt64.self), as: UInt64.self)
            (to + 8).storeBytes(of: (to + 8 - step).loadUnaligned(as: UInt64.self), as: UInt64.self)
            to += 16
        }
        while to < end {
            to.storeBytes(of: (to - step).loadUnaligned(as: UInt64.self), as: UInt64.self)
            to += 8
        }
    }

    /// The fast loop runs while the output position is at most this: 290 bytes short of the
    /// window's end, and a whole match (258 bytes) short of the output limit, so the careful
    /// path decodes the tokens near the limit one at a time and a bomb is caught at exactly the
    /// token that crosses it.
    var fastLoopOutputLimit: Int {
        @inline(__always) get { min(fastOutputLimit, outputLimitPosition - DeflateConstants.maxMatch) }
    }
}

/// Why ``Inflater/decodeFast()`` stopped.
enum FastExit {
    /// Input or output room ran short: the careful path or the next call goes on.
    case limits
    case endOfBlock
    case invalidLiteralLength
    case invalidDistance
    case distanceTooFar
}
