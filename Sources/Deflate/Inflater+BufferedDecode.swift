/// What ``Inflater/decodeByte(_:)`` did with a byte.
@usableFromInline
enum SmallPieceResult {
    /// Taken and decoded as far as it goes; nothing to deliver: the call is over.
    case settled
    /// Taken; the state machine must go on (output to deliver, a block's end, a token for the careful twin).
    case goOn
    /// Not taken: the byte goes through the state machine as input.
    case declined
}

/// Why ``Inflater/decodeBufferedTokens(outputLimit:)`` stopped.
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
        var needed: UInt32 = 0
        return decodeBuffered(outputLimit: outputLimit, pullsInput: true, needed: &needed)
    }

    /// A byte fed alone (see ``feed(_:into:)``): into the bit buffer and, inside a Huffman block,
    /// through the buffered loop without the input pointers, all in one short call. `.declined`
    /// (the byte not taken) outside a Huffman block, near the output limits or after a failure.
    @usableFromInline @inline(never)
    func decodeByte(_ byte: UInt8) -> SmallPieceResult {
        let limit = smallPieceOutputLimit
        guard outputPosition <= limit, bitCount <= 55 else { return .declined }
        bitBuffer |= UInt64(byte) &<< UInt64(truncatingIfNeeded: bitCount)
        bitCount &+= 8
        bytesTakenAlone &+= 1
        return decodeHeldBits(outputLimit: limit)
    }

    /// Decodes what the bit buffer holds after a small piece went into it (inside a Huffman
    /// block, `outputLimit` being ``smallPieceOutputLimit``) and sets ``holdBelow``.
    @inline(__always)
    func decodeHeldBits(outputLimit: Int) -> SmallPieceResult {
        var needed: UInt32 = 0
        switch decodeBuffered(outputLimit: outputLimit, pullsInput: false, needed: &needed) {
        case .needInput:
            return settle(needed: needed, bits: bitBuffer, available: UInt32(truncatingIfNeeded: bitCount), position: outputPosition)
        case .endOfBlock:
            endBlock()
            return .goOn
        case .handOver:
            return .goOn
        }
    }

    /// After the buffered loop stopped for input at a token that takes at least `needed` bits,
    /// with `bits` (`available` of them) buffered and the output at `position`: sets
    /// ``holdBelow`` and says whether the output waits (`.settled`) or goes to the sink.
    ///
    /// The bytes that cannot complete the token (an attempt with them would decode nothing),
    /// then up to the trailer's length (see ``heldInputLimit``) and, before the final block, what
    /// must come before the stream's end (see ``holdBelow``), as far as the bit buffer takes
    /// them with room for one more byte (`bitCount` ≤ 55 for this path). What depends on the
    /// block alone was worked out once (see ``refreshHoldBounds(workingOutEndOfBlock:)``).
    @inline(__always)
    func settle(needed: UInt32, bits: UInt64, available: UInt32, position: Int) -> SmallPieceResult {
        // Whether the bits so far rule out the end-of-block codeword as the pending token: they
        // differ from it at a bit that is buffered (the mask is 0 in the final block and while
        // the codeword is not worked out, so it is never ruled out then).
        let differs = (bits ^ holdEndOfBlockCodeword) & holdEndOfBlockMask
        let ruledOut = differs.trailingZeroBitCount < Int(truncatingIfNeeded: available)
        // Ruled out: the token, then the end-of-block codeword and the final block. Else the
        // token may be the end of the block: the longer of the two, then the final block.
        let token = Int(truncatingIfNeeded: needed)
        let least = holdFloor &+ (ruledOut ? token : max(token &- holdEndOfBlockLength, 0))
        holdBelow = min(least, 48)
        assert(holdBelow == holdBoundFromTheBlock(needed: token, bits: bits, available: Int(truncatingIfNeeded: available)),
               "per-block hold bounds out of date")
        // Output waits until a delivery's worth has gathered (see ``smallPieceDeliveryThreshold``).
        return position < smallPieceDeliveryPosition ? .settled : .goOn
    }

    /// The careful twin of the bound ``settle(needed:bits:available:position:)`` sets, worked out
    /// from the block's own state each time (a debug check).
    func holdBoundFromTheBlock(needed: Int, bits: UInt64, available: Int) -> Int {
        var least = needed + heldInputBits
        if !isFinalBlock {
            least += Inflater.leastBitsOfAFinalBlock
            // 0 while the codeword is not worked out: never ruled out then.
            let known = min(available, endOfBlockLength)
            let ruledOut = (bits ^ endOfBlockCodeword) & ((UInt64(1) << UInt64(known)) - 1) != 0
            if ruledOut {
                least += endOfBlockLength
            } else if endOfBlockLength > needed {
                least += endOfBlockLength - needed
            }
        }
        return min(least, 48)
    }

    /// Sets what ``settle(needed:bits:available:position:)`` takes from the block being decoded:
    /// after every call through the state machine (the only place blocks begin). The end-of-block
    /// codeword of a dynamic block is worked out only after a piece of 1–7 bytes
    /// (`workingOutEndOfBlock`: a caller feeding bytes alone brings the block's header that way);
    /// until then the bound is the one for a token that may be the end of the block, which is
    /// never more than the true one.
    @inline(__always)
    func refreshHoldBounds(workingOutEndOfBlock: Bool) {
        smallPieceDeliveryPosition = deliveredPosition &+ Inflater.smallPieceDeliveryThreshold
        // Once per block (a caller whose every byte goes through the state machine, as a flat
        // image's stream fed a byte at a time does, comes here after nearly every byte).
        if holdBoundsStale { refreshHoldBoundsOfTheBlock(workingOutEndOfBlock: workingOutEndOfBlock) }
    }

    /// See ``refreshHoldBounds(workingOutEndOfBlock:)``.
    @inline(never)
    func refreshHoldBoundsOfTheBlock(workingOutEndOfBlock: Bool) {
        if isFinalBlock {
            holdFloor = heldInputBits
            holdEndOfBlockLength = 0
            holdEndOfBlockMask = 0
            holdBoundsStale = false
            return
        }
        if endOfBlockLength == 0 {
            if workingOutEndOfBlock {
                endOfBlockCodewordOfThisBlock()
            } else {
                // Not worked out yet (stays stale): the bound for a token that may end the block.
                holdFloor = heldInputBits &+ Inflater.leastBitsOfAFinalBlock
                holdEndOfBlockLength = 0
                holdEndOfBlockMask = 0
                return
            }
        }
        holdFloor = heldInputBits &+ Inflater.leastBitsOfAFinalBlock &+ endOfBlockLength
        holdEndOfBlockLength = endOfBlockLength
        holdEndOfBlockMask = (UInt64(1) &<< UInt64(truncatingIfNeeded: endOfBlockLength)) &- 1
        holdEndOfBlockCodeword = endOfBlockCodeword
        holdBoundsStale = false
    }

    /// Works out the end-of-block codeword of the dynamic block being decoded from its code
    /// lengths, which stay in ``codeLengths`` until the next block's header: once per block, and
    /// only for a caller feeding small pieces (a whole-input decode never pays for it).
    @inline(never)
    func endOfBlockCodewordOfThisBlock() {
        (endOfBlockCodeword, endOfBlockLength) = HuffmanTableBuilder.codeword(of: 256, lengths: codeLengths + 19, count: literalCount)
    }

    /// The loop of ``decodeBufferedTokens(outputLimit:)``; with `pullsInput` false it decodes from
    /// the bit buffer alone (the call's input pointers are not set up). On `.needInput`, `needed`
    /// is a lower bound on the bits the token it stopped at takes (see ``holdBelow``).
    ///
    /// Entries are used as the fast loop uses them (see ``HuffmanEntry``): a subtable entry gets the
    /// main table's bits added to its count and codeword length, so every token is consumed from its
    /// first bit; the low byte of an entry is its whole bit count.
    @inline(__always)
    private func decodeBuffered(outputLimit: Int, pullsInput: Bool, needed: inout UInt32) -> BufferedStop {
        var bits = bitBuffer
        var available = UInt32(truncatingIfNeeded: bitCount)
        var input = pullsInput ? inputPosition : UnsafePointer(emptyInput)
        let end = pullsInput ? inputEnd : input
        let output = window
        var position = outputPosition
        let literals = UnsafePointer(literalTable)
        let distances = literals + Inflater.distanceTableOffset
        var stop = BufferedStop.handOver
        // A run of literals (below) starts at a position at or below it: one compare.
        let runLimit = outputLimit &- 64
        // The bit count of an entry and its codeword length. A literal's low byte is its count
        // (bits 5–7 are zero: ``HuffmanEntry/hasExtraBits`` is only set on lengths and distances),
        // one zero-extending move instead of a move and a mask.
        @inline(__always) func count(_ entry: UInt32) -> UInt32 { entry & HuffmanEntry.lengthMask }
        @inline(__always) func literalCount(_ entry: UInt32) -> UInt32 { entry & 0xFF }
        // Consumes literal `entry` (`used` bits) and writes its byte.
        @inline(__always) func takeLiteral(_ entry: UInt32, _ used: UInt32) {
            bits &>>= UInt64(truncatingIfNeeded: entry)
            available &-= used
            output[position] = UInt8(truncatingIfNeeded: entry &>> 16)
            position &+= 1
        }
        @inline(__always) func codeword(_ entry: UInt32) -> UInt32 { (entry &>> 8) & HuffmanEntry.codewordMask }
        // As in the fast loop: the extra bits of a base entry from `saved`, the bits at its codeword.
        @inline(__always) func extra(_ entry: UInt32, _ saved: UInt64) -> Int {
            let keep = 0 &- UInt64(truncatingIfNeeded: entry)
            return Int(truncatingIfNeeded: ((saved &<< keep) &>> keep) &>> UInt64(truncatingIfNeeded: entry &>> 8))
        }

        refilling: while true {
            if pullsInput {
                while available <= 56 && input < end {
                    bits |= UInt64(input.pointee) &<< UInt64(available)
                    available &+= 8
                    input += 1
                }
            }
            while position <= outputLimit {
                var entry = literals[Int(truncatingIfNeeded: bits & 0x7FF)]
                if Int32(bitPattern: entry) < 0 && position <= runLimit {
                    // A run of literals with room for more than the bit buffer can hold (each takes
                    // at least one of its ≤ 63 bits): no output check per literal. The first token
                    // that is not a literal goes on below; an incomplete literal stops the loop from
                    // here (most attempts on a byte fed alone end so: no second look at it). The
                    // count is kept in a byte, as a literal entry's low byte is its bit count: the
                    // check and the subtraction take the entry as it is (no zero-extending move
                    // per literal; LLVM still copies the count once per literal for the exit).
                    var left = UInt8(truncatingIfNeeded: available)
                    repeat {
                        let used = UInt8(truncatingIfNeeded: entry)
                        if used > left {
                            // An incomplete literal: as the single-literal case below stops.
                            available = UInt32(truncatingIfNeeded: left)
                            if pullsInput && input < end { continue refilling }
                            needed = UInt32(truncatingIfNeeded: used)
                            stop = .needInput
                            break refilling
                        }
                        left &-= used
                        bits &>>= UInt64(truncatingIfNeeded: entry)
                        output[position] = UInt8(truncatingIfNeeded: entry &>> 16)
                        position &+= 1
                        entry = literals[Int(truncatingIfNeeded: bits & 0x7FF)]
                    } while Int32(bitPattern: entry) < 0
                    available = UInt32(truncatingIfNeeded: left)
                    assert(position <= outputLimit, "literal run past the output limit")
                }
                if Int32(bitPattern: entry) < 0 {
                    // A literal (one sign test; never exceptional, and its codeword is all it takes).
                    let used = literalCount(entry)
                    if used > available {
                        if pullsInput && input < end { continue refilling }
                        needed = used
                        stop = .needInput
                        break refilling
                    }
                    takeLiteral(entry, used)
                    continue
                }
                if entry & HuffmanEntry.exceptional != 0 {
                    if entry & HuffmanEntry.kindMask == HuffmanEntry.link {
                        entry = HuffmanEntry.subtableEntry(literals, link: entry, bitsAfterMain: bits &>> 11) &+ (11 | 11 << 8)
                    }
                }
                let used = count(entry)
                // Incomplete: more input if there is any (the bit buffer has room, as a token
                // takes at most 48 bits), else wait for the next call: while the codeword is
                // incomplete the least it takes is its length, else codeword and extra bits.
                if used > available {
                    if pullsInput && input < end { continue refilling }
                    needed = codeword(entry) > available ? codeword(entry) : used
                    stop = .needInput
                    break refilling
                }
                if Int32(bitPattern: entry) < 0 {
                    // A literal from a subtable.
                    takeLiteral(entry, used)
                    continue
                }
                if entry & HuffmanEntry.exceptional != 0 {
                    // The end of the block, or a symbol the careful twin must judge.
                    guard entry & HuffmanEntry.kindMask == HuffmanEntry.endOfBlock else { break refilling }
                    bits &>>= UInt64(truncatingIfNeeded: entry)
                    available &-= used
                    stop = .endOfBlock
                    break refilling
                }
                let rest = bits &>> UInt64(truncatingIfNeeded: entry)
                var distanceEntry = distances[Int(truncatingIfNeeded: rest & 0xFF)]
                if distanceEntry & HuffmanEntry.exceptional != 0 {
                    if distanceEntry & HuffmanEntry.kindMask == HuffmanEntry.link {
                        distanceEntry = HuffmanEntry.subtableEntry(distances, link: distanceEntry, bitsAfterMain: rest &>> 8) &+ (8 | 8 << 8)
                    }
                }
                let total = used &+ count(distanceEntry)
                if total > available {
                    if pullsInput && input < end { continue refilling }
                    let least = used &+ codeword(distanceEntry)
                    needed = least > available ? least : total
                    stop = .needInput
                    break refilling
                }
                // An invalid distance symbol, or a distance before the output's start: the twin's.
                guard distanceEntry & HuffmanEntry.exceptional == 0 else { break refilling }
                let distance = Int(truncatingIfNeeded: distanceEntry &>> 16) &+ extra(distanceEntry, rest)
                guard distance <= position else { break refilling }
                var length = Int(truncatingIfNeeded: entry &>> 16)
                if entry & HuffmanEntry.hasExtraBits != 0 { length &+= extra(entry, bits) }
                bits = rest &>> UInt64(truncatingIfNeeded: distanceEntry)
                available &-= total
                copyMatch(to: output + position, distance: distance, length: length)
                position &+= length
            }
            break
        }

        bitBuffer = bits
        bitCount = Int(truncatingIfNeeded: available)
        if pullsInput {
            examinedCount &+= input - inputPosition
            inputPosition = input
        }
        outputPosition = position
        return stop
    }
}
