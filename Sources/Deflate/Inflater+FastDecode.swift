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
        // Only the low 6 bits of `available` are kept exact (0...63): the loop subtracts whole
        // entries, whose low 6 bits are the bit count (see ``HuffmanEntry``), and the bits above
        // them collect garbage no use reads (shifts use the low 6 bits, the refill bits 3–5).
        // 32 bits wide, as the entries are: subtracting an entry needs no widening move.
        var available = UInt32(truncatingIfNeeded: bitCount)
        var input = inputPosition
        let inputLimit = inputEnd - Inflater.fastInputMargin
        let output = window
        var position = outputPosition
        let outputLimit = fastLoopOutputLimit
        let literals = UnsafePointer(literalTable)
        // At a constant offset from `literals` (one allocation), so it needs no register of its own.
        let distances = literals + Inflater.distanceTableOffset

        // Branchless refill: after it, 56...63 bits are valid; bits above `available` are the
        // next input bytes, which the next refill ORs in again unchanged. So `bits` always holds
        // the next 64 - (bits consumed since the last refill) input bits, and the entry of the next
        // token can be looked up as soon as the current token's bits are consumed (a token takes
        // at most 48 bits, leaving at least the 11 the lookup needs): the lookup's latency then
        // overlaps the literal store or the match copy instead of following the refill.
        @inline(__always) func refill() {
            bits |= UInt64(littleEndian: UnsafeRawPointer(input).loadUnaligned(as: UInt64.self)) &<< UInt64(truncatingIfNeeded: available)
            input = input + 7 - Int(truncatingIfNeeded: (available &>> 3) & 7)
            available |= 56
        }
        // Consumes a whole entry's bits: the shift reads only the low 6 bits of the entry (the
        // count), and the subtraction disturbs only the bits of `available` above its low 6
        // (the flag bit 7 and the value bits), which no use reads: neither needs a mask.
        @inline(__always) func consume(_ entry: UInt32) {
            bits &>>= UInt64(truncatingIfNeeded: entry)
            available &-= entry
        }
        @inline(__always) func isLiteral(_ entry: UInt32) -> Bool { Int32(bitPattern: entry) < 0 }
        // The entry of the next token, looked up as soon as the bits before it are consumed.
        var entry: UInt32 = 0
        // Writes the literal `entry` holds and looks up the next token's entry.
        @inline(__always) func takeLiteral() {
            consume(entry)
            output[position] = UInt8(truncatingIfNeeded: entry &>> 16)
            position &+= 1
            entry = literals[Int(truncatingIfNeeded: bits & 0x7FF)]
        }
        // The extra bits of a length or distance entry (`saved`: the bits at its codeword): the
        // entry's `count` low bits, kept by shifting left and back right by 64 - count (`0 - entry`
        // as a shift amount: shifts use the low 6 bits, which are 64 - count), then shifted past
        // the codeword. A base entry's bits 12–15 are zero, so `entry >> 8` is the codeword
        // length as a shift. No mask is built: four shifts instead of the mask's six steps.
        @inline(__always) func extra(_ entry: UInt32, _ saved: UInt64) -> Int {
            let keep = 0 &- UInt64(truncatingIfNeeded: entry)
            return Int(truncatingIfNeeded: ((saved &<< keep) &>> keep) &>> UInt64(truncatingIfNeeded: entry &>> 8))
        }
        // Stores the state back; drops the look-ahead bits above `available` (see the refill).
        @inline(__always) func storeState() {
            let count = UInt64(truncatingIfNeeded: available & 63)
            bitBuffer = bits & ((1 &<< count) &- 1)
            bitCount = Int(truncatingIfNeeded: count)
            examinedCount &+= input - inputPosition
            inputPosition = input
            outputPosition = position
        }
        // A problem found after `consumed` bits of the token: the error points at the byte holding
        // the token's first bit, as the careful path's does, whatever the chunking.
        @inline(__always) func failure(_ exit: FastExit, _ value: Int, consumed: UInt64) -> InflateError {
            storeState()
            return fastLoopError(exit, value, consumedInToken: consumed)
        }

        if input <= inputLimit {
            refill()
            entry = literals[Int(truncatingIfNeeded: bits & 0x7FF)]
        }

        while input <= inputLimit && position <= outputLimit {
            // One output position that keeps both limits: every iteration writes at least one
            // byte and advances the input by at most 7 (one refill), so up to `stop` the input
            // stays within its limit too, and the inner loop compares one position per token.
            let stop = min(outputLimit, position &+ ((inputLimit - input) &>> 3))
            repeat {
                assert(input <= inputLimit && position <= outputLimit, "fast loop past its limits")
                refill()
                if isLiteral(entry) {
                    // Literals come in runs: with >= 41 bits left after the first (56 - 15), two more
                    // literals of at most 15 bits each fit without a refill. A non-literal is
                    // decoded again after the next refill, which guarantees the 48 bits a match needs.
                    takeLiteral()
                    if isLiteral(entry) {
                        takeLiteral()
                        if isLiteral(entry) {
                            takeLiteral()
                        }
                    }
                    continue
                }
                if entry & HuffmanEntry.exceptional != 0 {
                    // Rare: a codeword longer than the main table's 11 bits, the end of the block, or
                    // a symbol that must not occur.
                    if entry & HuffmanEntry.kindMask == HuffmanEntry.link {
                        // The subtable entry with the main table's 11 bits added to its bit count
                        // and codeword length, so it is consumed (and its extra bits found) from
                        // the token's first bit like a main-table entry.
                        entry = HuffmanEntry.subtableEntry(literals, link: entry, bitsAfterMain: bits &>> 11) &+ (11 | 11 << 8)
                        if isLiteral(entry) {
                            takeLiteral()
                            continue
                        }
                    }
                    if entry & HuffmanEntry.exceptional != 0 {
                        if entry & HuffmanEntry.kindMask == HuffmanEntry.endOfBlock {
                            consume(entry)
                            storeState()
                            return true
                        }
                        throw failure(.invalidLiteralLength, Int(truncatingIfNeeded: entry &>> 16), consumed: 0)
                    }
                }
                // A length: codeword and extra bits go in one step (see HuffmanEntry). Lengths
                // 3–10 (most of them) have no extra bits to work out.
                var saved = bits
                consume(entry)
                var length = Int(truncatingIfNeeded: entry &>> 16)
                if entry & HuffmanEntry.hasExtraBits != 0 { length &+= extra(entry, saved) }

                var distanceEntry = distances[Int(truncatingIfNeeded: bits & 0xFF)]
                if distanceEntry & HuffmanEntry.exceptional != 0 {
                    if distanceEntry & HuffmanEntry.kindMask == HuffmanEntry.link {
                        // As for the literal/length subtable: the 8 main-table bits join the entry.
                        distanceEntry = HuffmanEntry.subtableEntry(distances, link: distanceEntry, bitsAfterMain: bits &>> 8) &+ (8 | 8 << 8)
                    }
                    if distanceEntry & HuffmanEntry.exceptional != 0 {
                        throw failure(.invalidDistance, 0, consumed: UInt64(entry & HuffmanEntry.lengthMask))
                    }
                }
                saved = bits
                consume(distanceEntry)
                let distance = Int(truncatingIfNeeded: distanceEntry &>> 16) &+ extra(distanceEntry, saved)
                guard distance <= position else {
                    throw failure(.distanceTooFar, distance,
                                  consumed: UInt64(entry & HuffmanEntry.lengthMask) &+ UInt64(distanceEntry & HuffmanEntry.lengthMask))
                }
                entry = literals[Int(truncatingIfNeeded: bits & 0x7FF)]
                copyMatch(to: output + position, distance: distance, length: length)
                position &+= length
            } while position <= stop
        }
        storeState()
        return false
    }

    /// The error for a problem the fast loop stopped at (built outside the loop), after the
    /// state is stored: `consumedInToken` bits of the failing token had been taken.
    @inline(never)
    private func fastLoopError(_ exit: FastExit, _ value: Int, consumedInToken: UInt64) -> InflateError {
        // The byte holding the token's first bit.
        let offset = totalIn - (bitCount + Int(truncatingIfNeeded: consumedInToken) + 7) / 8
        switch exit {
        case .invalidLiteralLength:
            return fail(.invalidSymbol, "literal/length symbol \(value) is not allowed (only 0–285 exist)", at: offset)
        case .invalidDistance:
            return fail(.invalidSymbol, "distance symbol is not allowed (30, 31, or a code the block did not define)", at: offset)
        case .distanceTooFar:
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
        if distance >= 16 {
            // The common case first. 16-byte chunks; most matches are short: two chunks cover
            // lengths up to 32 without a loop. One source pointer for both (an offset each).
            let from = UnsafeRawPointer(to - distance)
            to.storeBytes(of: from.loadUnaligned(as: SIMD16<UInt8>.self), as: SIMD16<UInt8>.self)
            (to + 16).storeBytes(of: (from + 16).loadUnaligned(as: SIMD16<UInt8>.self), as: SIMD16<UInt8>.self)
            to += 32
            while to < end {
                to.storeBytes(of: (to - distance).loadUnaligned(as: SIMD16<UInt8>.self), as: SIMD16<UInt8>.self)
                (to + 16).storeBytes(of: (to + 16 - distance).loadUnaligned(as: SIMD16<UInt8>.self), as: SIMD16<UInt8>.self)
                to += 32
            }
            return
        }
        if distance == 1 {
            // A run of one byte (flat image rows): 16 copies of it per store, no call.
            let run = SIMD16<UInt8>(repeating: (destination - 1).pointee)
            to.storeBytes(of: run, as: SIMD16<UInt8>.self)
            (to + 16).storeBytes(of: run, as: SIMD16<UInt8>.self)
            to += 32
            while to < end {
                to.storeBytes(of: run, as: SIMD16<UInt8>.self)
                (to + 16).storeBytes(of: run, as: SIMD16<UInt8>.self)
                to += 32
            }
            return
        }
        copyShortDistance(to, end: end, distance: distance)
    }

    /// ``copyMatch(to:distance:length:)`` for distances 2...15 (rare in most streams, so out of
    /// line: the fast loop keeps its registers).
    ///
    /// The match repeats the `distance` bytes before it. Sixteen bytes of that pattern are built
    /// in two registers from them, then stored again and again, advancing by the largest multiple
    /// of the distance that fits 16 (3 → 15, 8 → 16, 12 → 12): no load reads bytes this copy
    /// stored, so none waits for a store to reach the cache (a load overlapping part of a recent
    /// store cannot be forwarded from it). Writes up to 15 bytes past the match.
    @inline(never)
    func copyShortDistance(_ start: UnsafeMutableRawPointer, end: UnsafeMutableRawPointer, distance: Int) {
        let source = UnsafeRawPointer(start - distance)
        let patternBits = UInt64(truncatingIfNeeded: distance &* 8)
        var low: UInt64, high: UInt64
        if distance < 8 {
            // The pattern (the low `distance` bytes; the bytes above are the match's own, not yet
            // written) times 1 + 2^(8d) + 2^(16d) + …: copies side by side, no carries.
            let mask = (1 &<< patternBits) &- 1
            var repeats: UInt64 = 1
            var shift = patternBits
            while shift < 64 {
                repeats |= 1 &<< shift
                shift &+= patternBits
            }
            low = (UInt64(littleEndian: source.loadUnaligned(as: UInt64.self)) & mask) &* repeats
            // Bytes 8...15 start at phase 8 mod d of the pattern, which `low` holds whole from there.
            let phase = ((Inflater.eightModulo &>> UInt64(truncatingIfNeeded: distance &* 4)) & 15) &* 8
            assert(phase == UInt64(8 % distance * 8), "eightModulo out of step")
            high = ((low &>> phase) & mask) &* repeats
        } else {
            // Bytes 0...7 are the pattern's; of bytes 8...15, those below d too, the rest start over.
            let kept = patternBits &- 64
            low = UInt64(littleEndian: source.loadUnaligned(as: UInt64.self))
            let next = UInt64(littleEndian: (source + 8).loadUnaligned(as: UInt64.self))
            high = (next & ((1 &<< kept) &- 1)) | (low &<< kept)
        }
        let chunk = SIMD2<UInt64>(UInt64(littleEndian: low), UInt64(littleEndian: high))
        let step = 16 &- Int(truncatingIfNeeded: (Inflater.sixteenModulo &>> UInt64(truncatingIfNeeded: distance &* 4)) & 15)
        assert(step == 16 - 16 % distance, "sixteenModulo out of step")
        var to = start
        repeat {
            to.storeBytes(of: chunk, as: SIMD2<UInt64>.self)
            to += step
        } while to < end
    }

    /// `16 % d` and `8 % d` in the 4-bit field d (d < 16, d < 8): no division per match.
    static let sixteenModulo: UInt64 = 0x1234_5670_2410_1000
    static let eightModulo: UInt64 = 0x1230_2000

    /// The fast loop runs while the output position is at most this: 290 bytes short of the
    /// window's end, and a whole match (258 bytes) short of the output limit, so the careful
    /// path decodes the tokens near the limit one at a time and a bomb is caught at exactly the
    /// token that crosses it.
    var fastLoopOutputLimit: Int {
        @inline(__always) get { min(fastOutputLimit, outputLimitPosition - DeflateConstants.maxMatch) }
    }
}

/// What ``Inflater/decodeFast()`` found wrong.
enum FastExit {
    case invalidLiteralLength
    case invalidDistance
    case distanceTooFar
}
