/// Decodes one block's share of a progressive Huffman scan (T.81 G.1.2) into raw (not
/// dequantized) coefficients in natural order.
///
/// Each decoder works on a local copy of the bit reader (written back on return) so the reader
/// lives in registers rather than memory through the loop.
///
/// Coefficients are kept as 16-bit values, as libjpeg's JCOEF: every store truncates to 16 bits,
/// so corrupt data behaves the same way there and here. The renderer dequantizes when it draws.
enum ProgressiveBlockDecoder {
    typealias Outcome = SequentialBlockDecoder.Outcome

    /// Stores `value` truncated to 16 bits, as a JCOEF assignment does.
    @inline(__always)
    private static func store(_ value: Int32, at pointer: UnsafeMutablePointer<Int16>) {
        pointer.pointee = Int16(truncatingIfNeeded: value)
    }

    /// `count` (1...16) raw bits as an unsigned value.
    @inline(__always)
    private static func bits(_ count: Int, _ reader: inout BitReader) -> Int {
        if reader.bitCount < count { reader.refill() }
        let value = reader.peek(count)
        reader.consume(count)
        return value
    }

    /// G.1.2.1 DC first scan: the DC difference, added to the predictor and stored `<< shift`.
    static func decodeDCFirst(into block: UnsafeMutablePointer<Int16>, shift: Int, dc: HuffmanLookup,
                              predictor: inout Int32, reader sharedReader: inout BitReader) -> Outcome {
        // A local copy stays in registers; the caller's reader is written back once.
        var reader = sharedReader
        defer { sharedReader = reader }
        var outcome = Outcome.decoded
        var size = reader.decodeSymbol(dc)
        if size < 0 { outcome = .badCode; size = 0 }
        var difference: Int32 = 0
        if size != 0 { difference = reader.receiveExtended(size) }
        let (value, overflow) = predictor.addingReportingOverflow(difference)
        if overflow { return .predictorOverflow }
        predictor = value
        // libjpeg's LEFT_SHIFT on an int, then the JCOEF store.
        store(Int32(bitPattern: UInt32(bitPattern: value) &<< UInt32(shift)), at: block)
        return outcome
    }

    /// G.1.2.1 DC refinement: one bit, OR-ed in at `shift`.
    static func decodeDCRefinement(into block: UnsafeMutablePointer<Int16>, shift: Int, reader sharedReader: inout BitReader) {
        // A local copy stays in registers; the caller's reader is written back once.
        var reader = sharedReader
        defer { sharedReader = reader }
        if bits(1, &reader) != 0 { store(Int32(block[0]) | Int32(1) << Int32(shift), at: block) }
    }

    /// The mask bit of zig-zag position `k`; corrupt runs can push `k` past 63, and the write
    /// then lands on coefficient 63 (``ZigZag/order``), so its bit is 63's.
    @inline(__always)
    private static func maskBit(_ k: Int) -> UInt64 {
        UInt64(1) &<< UInt64(truncatingIfNeeded: min(k, 63))
    }

    /// Stores `value` (truncated to 16 bits) at zig-zag position `k` and keeps `mask` in step.
    @inline(__always)
    private static func store(_ value: Int32, at k: Int, of block: UnsafeMutablePointer<Int16>,
                              zigzag: UnsafePointer<UInt8>, mask: inout UInt64) {
        let stored = Int16(truncatingIfNeeded: value)
        block[Int(zigzag[k])] = stored
        let bit = maskBit(k)
        mask = stored != 0 ? mask | bit : mask & ~bit
    }

    /// G.1.2.2 AC first scan of band `start...end`; `eobRun` is the scan's count of blocks still
    /// to skip (an EOBn symbol covers this block and the next ones). `mask` is the block's
    /// ``CoefficientWindow/nonZeroMasks`` word.
    static func decodeACFirst(into block: UnsafeMutablePointer<Int16>, mask maskPointer: UnsafeMutablePointer<UInt64>,
                              start: Int, end: Int, shift: Int,
                              ac: HuffmanLookup, eobRun: inout Int, reader sharedReader: inout BitReader,
                              zigzag: UnsafePointer<UInt8>) -> Outcome {
        // A local copy stays in registers; the caller's reader is written back once.
        var reader = sharedReader
        defer { sharedReader = reader }
        return acFirstBlock(into: block, mask: maskPointer, start: start, end: end, shift: shift, ac: ac,
                            eobRun: &eobRun, reader: &reader, zigzag: zigzag)
    }

    /// ``decodeACFirst`` for `count` consecutive blocks (and their masks) of a single-component
    /// scan, with the reader in registers throughout. Stops after a block whose outcome is not
    /// `.decoded` or that used invented bits, or that leaves the reader past `startLimit`; returns
    /// the blocks decoded and that outcome.
    static func decodeACFirstRun(blocks: UnsafeMutablePointer<Int16>, masks: UnsafeMutablePointer<UInt64>, count: Int,
                                 start: Int, end: Int, shift: Int, ac: HuffmanLookup, eobRun sharedEOBRun: inout Int,
                                 reader sharedReader: inout BitReader, zigzag: UnsafePointer<UInt8>,
                                 startLimit: Int = .max) -> (decoded: Int, outcome: Outcome) {
        eachBlock(count: count, startLimit: startLimit, eobRun: &sharedEOBRun, reader: &sharedReader) { index, eobRun, reader in
            acFirstBlock(into: blocks + index &* 64, mask: masks + index, start: start, end: end, shift: shift,
                         ac: ac, eobRun: &eobRun, reader: &reader, zigzag: zigzag)
        }
    }

    /// Runs `decodeBlock(index, &eobRun, &reader)` for blocks 0..<`count` on local copies of the
    /// EOB run and the reader (which then live in registers), stopping after a block whose
    /// outcome is not `.decoded` or that used invented bits, or that leaves the reader past
    /// `startLimit` (the next block may not start there); returns the blocks decoded and that outcome.
    @inline(__always)
    private static func eachBlock(count: Int, startLimit: Int, eobRun sharedEOBRun: inout Int, reader sharedReader: inout BitReader,
                                  _ decodeBlock: (Int, inout Int, inout BitReader) -> Outcome) -> (decoded: Int, outcome: Outcome) {
        var reader = sharedReader
        var eobRun = sharedEOBRun
        defer {
            sharedReader = reader
            sharedEOBRun = eobRun
        }
        for index in 0..<count {
            let outcome = decodeBlock(index, &eobRun, &reader)
            if outcome != .decoded || reader.usedInventedBits || reader.position > startLimit { return (index + 1, outcome) }
        }
        return (count, .decoded)
    }

    @inline(__always)
    private static func acFirstBlock(into block: UnsafeMutablePointer<Int16>, mask maskPointer: UnsafeMutablePointer<UInt64>,
                                     start: Int, end: Int, shift: Int,
                                     ac: HuffmanLookup, eobRun: inout Int, reader: inout BitReader,
                                     zigzag: UnsafePointer<UInt8>) -> Outcome {
        if eobRun > 0 {
            eobRun -= 1
            return .decoded
        }
        var mask = maskPointer.pointee
        defer { maskPointer.pointee = mask }
        var outcome = Outcome.decoded
        var k = start
        while k <= end {
            // Fast path, as in the sequential decoder: a short code and its extra bits in one read.
            if reader.bitCount < 16 { reader.refill() }
            let entry = ac.fastAC[reader.peek(HuffmanTable.fastACBits)]
            if entry & (1 << 12) != 0 {
                reader.consume(Int(entry & 0xFF))
                k &+= Int((entry >> 8) & 15)     // k ≤ 63, run ≤ 15: inside ZigZag.order's 80 entries
                store(Int32(bitPattern: UInt32(bitPattern: entry >> 16) &<< UInt32(shift)), at: k, of: block,
                      zigzag: zigzag, mask: &mask)
                k &+= 1
                continue
            }
            if entry & (1 << 13) != 0 {
                // EOB0: this block ends here.
                reader.consume(Int(entry & 0xFF))
                break
            }
            var symbol = reader.decodeSymbol(ac)
            if symbol < 0 { outcome = .badCode; symbol = 0 }
            let run = symbol >> 4, size = symbol & 15
            if size != 0 {
                k += run            // at most 63 + 15: ZigZag.order has 16 spare entries
                let value = reader.receiveExtended(size)
                store(Int32(bitPattern: UInt32(bitPattern: value) &<< UInt32(shift)), at: k, of: block,
                      zigzag: zigzag, mask: &mask)
            } else if run == 15 {
                k += 15             // ZRL: sixteen zeros with the k += 1 below
            } else {
                // EOBr: this block and 2^r + (r extra bits) − 1 more end here (G.1.2.2, Table G.1).
                eobRun = 1 << run
                if run != 0 { eobRun += bits(run, &reader) }
                eobRun -= 1
                break
            }
            k += 1
        }
        return outcome
    }

    /// G.1.2.3 AC refinement of band `start...end` at bit `shift`: new coefficients of magnitude
    /// 1 << shift, and one correction bit for every coefficient that is already non-zero.
    static func decodeACRefinement(into block: UnsafeMutablePointer<Int16>, mask maskPointer: UnsafeMutablePointer<UInt64>,
                                   start: Int, end: Int, shift: Int,
                                   ac: HuffmanLookup, eobRun: inout Int, reader sharedReader: inout BitReader,
                                   zigzag: UnsafePointer<UInt8>) -> Outcome {
        // A local copy stays in registers; the caller's reader is written back once.
        var reader = sharedReader
        defer { sharedReader = reader }
        return refinementBlock(into: block, mask: maskPointer, band: RefinementBand(start: start, end: end, shift: shift), ac: ac,
                               eobRun: &eobRun, reader: &reader, zigzag: zigzag)
    }

    /// What every block of a refinement scan shares, worked out once per run of blocks.
    struct RefinementBand {
        /// Mask bits `start...end`.
        let bits: UInt64
        /// `end + 1`, where a coefficient coded past the band's last zero-history position goes.
        let past: Int
        /// 1 << shift and −1 << shift: a new coefficient's values and the magnitude a correction adds.
        let plusOne: Int32, minusOne: Int32

        /// `start` ≤ `end` ≤ 63, `shift` ≤ 13 (``ProgressiveScanRules``).
        init(start: Int, end: Int, shift: Int) {
            bits = ProgressiveBlockDecoder.bandBits(from: start, through: end)
            past = end + 1
            plusOne = Int32(1) << Int32(shift)
            minusOne = Int32(-1) << Int32(shift)
        }
    }

    /// ``decodeACRefinement`` for `count` consecutive blocks (and their masks) of a
    /// single-component scan, with the reader in registers throughout. Stops after a block whose
    /// outcome is not `.decoded` or that used invented bits; returns the blocks decoded and that
    /// outcome. ``refineCarefully`` is the plain twin of its blocks.
    static func decodeACRefinementRun(blocks: UnsafeMutablePointer<Int16>, masks: UnsafeMutablePointer<UInt64>, count: Int,
                                      start: Int, end: Int, shift: Int, ac: HuffmanLookup, eobRun sharedEOBRun: inout Int,
                                      reader sharedReader: inout BitReader, zigzag: UnsafePointer<UInt8>,
                                      startLimit: Int = .max) -> (decoded: Int, outcome: Outcome) {
        let band = RefinementBand(start: start, end: end, shift: shift)
        return eachBlock(count: count, startLimit: startLimit, eobRun: &sharedEOBRun, reader: &sharedReader) { index, eobRun, reader in
            refinementBlock(into: blocks + index &* 64, mask: masks + index, band: band,
                            ac: ac, eobRun: &eobRun, reader: &reader, zigzag: zigzag)
        }
    }

    /// One block's refinement. The block's non-zero `mask` says which coefficients have history,
    /// so runs of zero-history coefficients are skipped with bit operations and the correction
    /// bits for the non-zero ones in between are read several at a time, instead of testing 63
    /// coefficients one by one. A code of a size-1 symbol and its sign bit come from one read of
    /// the combined AC table (``HuffmanTable/fastACSizeOne``).
    @inline(__always)
    private static func refinementBlock(into block: UnsafeMutablePointer<Int16>, mask maskPointer: UnsafeMutablePointer<UInt64>,
                                        band: RefinementBand, ac: HuffmanLookup, eobRun: inout Int, reader: inout BitReader,
                                        zigzag: UnsafePointer<UInt8>) -> Outcome {
        var mask = maskPointer.pointee
        let plusOne = band.plusOne
        var outcome = Outcome.decoded
        // The band's positions not passed yet (k...end in zig-zag terms); empty once k > end.
        var ahead = band.bits
        if eobRun == 0 {
            while ahead != 0 {
                if reader.bitCount < BitReader.symbolReadBits { reader.refill() }
                let entry = ac.fastAC[Int(truncatingIfNeeded: reader.accumulator &>> UInt64(64 - HuffmanTable.fastACBits))]
                let run: Int
                var newValue: Int32 = 0
                if entry & HuffmanTable.fastACSizeOne != 0 {
                    // The code and its sign bit: the entry's sign is the value's.
                    reader.consume(Int(entry & 0xFF))
                    run = Int((entry >> 8) & 15)
                    newValue = entry < 0 ? band.minusOne : plusOne
                } else if entry & HuffmanTable.fastACEndOfBlock != 0 {
                    reader.consume(Int(entry & 0xFF))
                    eobRun = 1
                    break
                } else {
                    var symbol = reader.decodeSymbol(ac)
                    if symbol < 0 { outcome = .badCode; symbol = 0 }
                    run = symbol >> 4
                    if symbol & 15 != 0 {
                        // Size must be 1 (G.1.2.3); libjpeg only warns, and so do we by decoding on.
                        newValue = bits(1, &reader) != 0 ? plusOne : band.minusOne
                    } else if run != 15 {
                        eobRun = 1 << run
                        if run != 0 { eobRun += bits(run, &reader) }
                        break
                    }
                }
                // The coefficient coded here sits on the (run + 1)-th zero-history position ahead
                // (ZRL: the 16th, and it stays zero); past the band if it has too few.
                var zeros = ~mask & ahead
                for _ in 0..<run { zeros &= zeros &- 1 }
                let stopBit = zeros & (0 &- zeros)   // lowest set bit, or 0
                // The non-zero coefficients passed on the way get their correction bits first
                // (stopBit − 1 is every bit below it, or all bits when there is no stop).
                refineAll(mask & ahead & (stopBit &- 1), of: block, plusOne: plusOne, reader: &reader, zigzag: zigzag)
                if stopBit == 0 {
                    // Past the band: k = end + 1 ≤ 64, which ZigZag.order covers.
                    if newValue != 0 { store(newValue, at: band.past, of: block, zigzag: zigzag, mask: &mask) }
                    ahead = 0
                    break
                }
                if newValue != 0 {
                    // |newValue| is 2^shift with shift ≤ 13: non-zero as a 16-bit value.
                    block[Int(zigzag[stopBit.trailingZeroBitCount])] = Int16(truncatingIfNeeded: newValue)
                    mask |= stopBit
                }
                // Drop the stop position and everything before it (stopBit << 1 is 0 for bit 63).
                ahead &= ~((stopBit &<< 1) &- 1)
            }
        }
        if eobRun > 0 {
            // Inside an EOB run only the already non-zero coefficients ahead get correction bits.
            refineAll(mask & ahead, of: block, plusOne: plusOne, reader: &reader, zigzag: zigzag)
            eobRun -= 1
        }
        maskPointer.pointee = mask
        return outcome
    }

    /// The plain twin of ``refinementBlock``: T.81 G.1.2.3 as libjpeg's `decode_mcu_AC_refine`
    /// spells it, coefficient by coefficient with one bit read at a time, and no mask (the caller
    /// derives the masks from the coefficients). Same coefficients, EOB run, outcome and bits
    /// consumed; the reader may have loaded bytes at other moments.
    static func refineCarefully(_ block: UnsafeMutablePointer<Int16>, start: Int, end: Int, shift: Int,
                                ac: HuffmanLookup, eobRun: inout Int, reader: inout BitReader) -> Outcome {
        let plusOne = Int32(1) << Int32(shift), minusOne = Int32(-1) << Int32(shift)
        var outcome = Outcome.decoded
        /// One correction bit for the non-zero coefficient at `natural`.
        func correct(_ natural: Int) {
            let value = Int32(block[natural])
            if bits(1, &reader) != 0 && value & plusOne == 0 {
                block[natural] = Int16(truncatingIfNeeded: value + (value >= 0 ? plusOne : minusOne))
            }
        }
        var k = start
        if eobRun == 0 {
            while k <= end {
                var symbol = reader.decodeSymbol(ac)
                if symbol < 0 { outcome = .badCode; symbol = 0 }
                var run = symbol >> 4
                var newValue: Int32 = 0
                if symbol & 15 != 0 {
                    newValue = bits(1, &reader) != 0 ? plusOne : minusOne
                } else if run != 15 {
                    eobRun = 1 << run
                    if run != 0 { eobRun += bits(run, &reader) }
                    break
                }
                while k <= end {
                    let natural = ZigZag.naturalIndex(k)
                    if block[natural] != 0 {
                        correct(natural)
                    } else {
                        if run == 0 { break }
                        run -= 1
                    }
                    k += 1
                }
                if newValue != 0 { block[ZigZag.naturalIndex(k)] = Int16(truncatingIfNeeded: newValue) }
                k += 1
            }
        }
        if eobRun > 0 {
            while k <= end {
                let natural = ZigZag.naturalIndex(k)
                if block[natural] != 0 { correct(natural) }
                k += 1
            }
            eobRun -= 1
        }
        return outcome
    }

    /// Mask bits `from...through` (empty when `from > through`); `from` ≤ 64, `through` ≤ 63.
    @inline(__always)
    private static func bandBits(from: Int, through: Int) -> UInt64 {
        guard from <= through else { return 0 }
        return (UInt64.max &<< UInt64(truncatingIfNeeded: from)) & (UInt64.max &>> UInt64(truncatingIfNeeded: 63 - through))
    }

    /// Reads one correction bit for each coefficient whose zig-zag position is set in `positions`
    /// (in order), up to 16 bits per refill. A set bit whose magnitude bit is not yet set grows the
    /// magnitude by 1 << shift (`plusOne`), away from zero; the update is branch-free because
    /// the bits are unpredictable.
    @inline(__always)
    private static func refineAll(_ positions: UInt64, of block: UnsafeMutablePointer<Int16>, plusOne: Int32,
                                  reader: inout BitReader, zigzag: UnsafePointer<UInt8>) {
        var pending = positions
        while pending != 0 {
            if reader.bitCount < 16 { reader.refill() }
            // Past a marker the accumulator holds zeros: the same as reading the bits one by one.
            // (No popcount: x86-64's baseline has no POPCNT instruction.)
            var word = reader.accumulator
            var count = 0
            while pending != 0 && count < 16 {
                count += 1
                let coefficient = block + Int(zigzag[pending.trailingZeroBitCount])
                pending &= pending &- 1
                let taken = Int32(truncatingIfNeeded: Int64(bitPattern: word) >> 63)   // the bit as 0 or −1
                word &<<= 1
                let value = Int32(coefficient.pointee)
                let grow = taken & ~value & plusOne        // plusOne when the bit is set and the magnitude bit clear
                let sign = value >> 31                     // 0 or −1
                coefficient.pointee = Int16(truncatingIfNeeded: value &+ ((grow ^ sign) &- sign))   // away from zero
            }
            reader.consume(count)
        }
    }
}
