/// Where one block of a sequential MCU goes and how it is coded. ``SequentialBlockDecoder/decodeRun``
/// walks one of these per block of the MCU, in MCU order (T.81 A.2.3).
struct SequentialBlockSlot {
    /// The block in the run's first MCU; each further MCU's is `blockStep` coefficients on.
    var block: UnsafeMutablePointer<Int16>
    var blockStep: Int
    /// The block's ``BlockShape`` byte in the run's first MCU; `shapeStep` bytes on per MCU.
    var shape: UnsafeMutablePointer<UInt8>
    var shapeStep: Int
    var quantization: UnsafePointer<Int32>
    var dc: HuffmanLookup
    var ac: HuffmanLookup
    /// The component's DC prediction.
    var predictor: UnsafeMutablePointer<Int32>
}

/// Decodes the 64 coefficients of the blocks of a sequential Huffman scan (T.81 F.2.2).
enum SequentialBlockDecoder {
    /// How a block decode went.
    enum Outcome {
        /// Every code was valid.
        case decoded
        /// A bit pattern matched no Huffman code (decoded as symbol 0, as libjpeg does).
        case badCode
        /// The DC prediction overflowed 32 bits.
        case predictorOverflow
    }

    /// Decodes blocks `start..<end` of a run of MCUs, block `i` being slot `i % blocksPerMCU` of
    /// MCU `i / blocksPerMCU` (MCU 0 is the one `slots` point at). Stops after a block whose
    /// outcome is not `.decoded`, or after an MCU that used invented bits (past a marker or the
    /// data), or after an MCU that leaves the reader past `startLimit` (the next MCU may not start
    /// there: see ``ScanDecoder``'s rule). Returns the index of the next block and the outcome of
    /// the last one.
    ///
    /// One call covers many blocks so the bit reader lives in registers throughout (a per-block
    /// call taking it `inout` kept it in memory, with two stores per coefficient).
    static func decodeRun(slots: UnsafePointer<SequentialBlockSlot>, blocksPerMCU: Int, from start: Int, to end: Int,
                          reader sharedReader: inout BitReader, zigzag: UnsafePointer<UInt8>,
                          startLimit: Int = .max) -> (next: Int, outcome: Outcome) {
        var reader = sharedReader
        defer { sharedReader = reader }
        var mcu = start / blocksPerMCU
        var slotIndex = start - mcu * blocksPerMCU
        var index = start
        while index < end {
            // Fields read through the pointer where they are used, not the 128-byte slot copied.
            let slot = slots + slotIndex
            let outcome = decodeBlock(into: slot.pointee.block + mcu * slot.pointee.blockStep,
                                      shape: slot.pointee.shape + mcu * slot.pointee.shapeStep,
                                      quantization: slot.pointee.quantization, dc: slot.pointee.dc, ac: slot.pointee.ac,
                                      predictor: slot.pointee.predictor, reader: &reader, zigzag: zigzag)
            index += 1
            slotIndex += 1
            if slotIndex == blocksPerMCU {
                slotIndex = 0
                mcu += 1
                if reader.usedInventedBits || reader.position > startLimit { return (index, outcome) }
            }
            if outcome != .decoded { return (index, outcome) }
        }
        return (end, .decoded)
    }

    /// Decodes one block into `block` (all zero, or what an earlier scan of the component left: like
    /// libjpeg, only DC and the non-zero AC coefficients are written), dequantized with
    /// `quantization`, in natural order; `predictor` is the component's last DC value. `shape` is
    /// widened (OR) to cover the result's ``BlockShape`` (the renderer uses it to clear only what was
    /// written). ``decodeCarefully`` is its plain twin.
    @inline(__always)
    static func decodeBlock(into block: UnsafeMutablePointer<Int16>, shape: UnsafeMutablePointer<UInt8>,
                            quantization: UnsafePointer<Int32>, dc: HuffmanLookup, ac: HuffmanLookup,
                            predictor: UnsafeMutablePointer<Int32>, reader: inout BitReader,
                            zigzag: UnsafePointer<UInt8>) -> Outcome {
        // The bit-reader steps are spelled out here with its non-mutating helpers (lookup, peek,
        // consume) rather than its mutating ones, which the optimiser does not reliably inline
        // this deep.
        var outcome = Outcome.decoded
        // F.2.2.1: DC difference category, then the difference itself.
        if reader.bitCount < BitReader.symbolReadBits { reader.refill() }
        var difference: Int32 = 0
        let dcEntry = dc.fastDC[Int(truncatingIfNeeded: reader.accumulator &>> UInt64(64 - HuffmanTable.fastACBits))]
        if dcEntry != 0 {
            // Code and difference bits in one read (at most fastACBits ≤ symbolReadBits bits).
            reader.consume(Int(dcEntry & 0xFF))
            difference = dcEntry >> 16
        } else {
            let dcCode = BitReader.symbol(atTopOf: reader.accumulator, dc)
            reader.consume(dcCode.length)
            var size = dcCode.symbol
            if size < 0 { outcome = .badCode; size = 0 }
            if size != 0 {
                if reader.bitCount < size { reader.refill() }
                difference = BitReader.extend(Int32(truncatingIfNeeded: reader.peek(size)), size: size)
                reader.consume(size)
            }
        }
        let (value, overflow) = predictor.pointee.addingReportingOverflow(difference)
        if overflow { return .predictorOverflow }
        predictor.pointee = value
        // libjpeg keeps the prediction in an int and stores it truncated to 16 bits (a JCOEF).
        // Products are stored in 16 bits too, as libjpeg-turbo's SIMD dequantization (a 16-bit
        // multiply) keeps them; a valid file's dequantized coefficients always fit.
        block[0] = Int16(truncatingIfNeeded: Int32(Int16(truncatingIfNeeded: value)) &* quantization[0])
        // F.2.2.2: AC run/size symbols until EOB or the end of the block.
        var k = 1
        // The OR of the natural indices written (BlockShape.forIndexMask).
        var indexMask = 0
        while k < 64 {
            if reader.bitCount < BitReader.symbolReadBits { reader.refill() }
            let entry = ac.fastAC[Int(truncatingIfNeeded: reader.accumulator &>> UInt64(64 - HuffmanTable.fastACBits))]
            if entry & HuffmanTable.fastACValue != 0 {
                // A short code and its extra bits, resolved by the one table read.
                reader.consume(Int(entry & 0xFF))
                // k < 64 and the run ≤ 15 (ZigZag.order has 80 entries), so no overflow is possible.
                k &+= Int((entry >> 8) & 15)
                let natural = Int(zigzag[k])
                block[natural] = Int16(truncatingIfNeeded: (entry >> 16) &* quantization[natural])
                indexMask |= natural
                k &+= 1
                continue
            }
            var run: Int, acSize: Int
            if entry & (HuffmanTable.fastACCodeOnly | HuffmanTable.fastACEndOfBlock) != 0 {
                // A short code whose extra bits lie past the table's 9, ZRL, or EOB.
                reader.consume(Int(entry & 0xFF))
                if entry & HuffmanTable.fastACEndOfBlock != 0 { break }
                run = Int((entry >> 8) & 15)
                acSize = Int((entry >> 16) & 15)
            } else {
                // The code alone (longer than fastACBits, or a size-0 symbol that ends the block).
                let acCode = BitReader.symbol(atTopOf: reader.accumulator, ac)
                reader.consume(acCode.length)
                var symbol = acCode.symbol
                if symbol < 0 { outcome = .badCode; symbol = 0 }
                run = symbol >> 4
                acSize = symbol & 15
            }
            if acSize != 0 {
                k &+= run        // at most 63 + 15: ZigZag.order has 16 spare entries
                let natural = Int(zigzag[k])
                if reader.bitCount < acSize { reader.refill() }
                let value = BitReader.extend(Int32(truncatingIfNeeded: reader.peek(acSize)), size: acSize)
                reader.consume(acSize)
                block[natural] = Int16(truncatingIfNeeded: value &* quantization[natural])
                indexMask |= natural
                k &+= 1
            } else {
                if run != 15 { break }   // EOB
                k &+= 16                 // ZRL: sixteen zeros
            }
        }
        shape.pointee |= BlockShape.forIndexMask(indexMask)
        return outcome
    }

    /// The plain twin of ``decodeBlock``: T.81 F.2.2 symbol by symbol (``BitReader/decodeSymbol(_:)``
    /// and ``BitReader/receiveExtended(_:)``), no combined table. Same coefficients, shape,
    /// prediction, outcome and reader state; the tests hold the two together.
    static func decodeCarefully(into block: UnsafeMutablePointer<Int16>, shape: UnsafeMutablePointer<UInt8>,
                                quantization: UnsafePointer<Int32>, dc: HuffmanLookup, ac: HuffmanLookup,
                                predictor: UnsafeMutablePointer<Int32>, reader: inout BitReader,
                                zigzag: UnsafePointer<UInt8>) -> Outcome {
        var outcome = Outcome.decoded
        var size = reader.decodeSymbol(dc)
        if size < 0 { outcome = .badCode; size = 0 }
        let difference = size == 0 ? 0 : reader.receiveExtended(size)
        let (value, overflow) = predictor.pointee.addingReportingOverflow(difference)
        if overflow { return .predictorOverflow }
        predictor.pointee = value
        block[0] = Int16(truncatingIfNeeded: Int32(Int16(truncatingIfNeeded: value)) &* quantization[0])
        var k = 1
        var indexMask = 0
        while k < 64 {
            var symbol = reader.decodeSymbol(ac)
            if symbol < 0 { outcome = .badCode; symbol = 0 }
            let run = symbol >> 4, acSize = symbol & 15
            if acSize == 0 {
                if run != 15 { break }   // EOB
                k += 16                  // ZRL
                continue
            }
            k += run
            let natural = ZigZag.naturalIndex(k)
            block[natural] = Int16(truncatingIfNeeded: reader.receiveExtended(acSize) &* quantization[natural])
            indexMask |= natural
            k += 1
        }
        shape.pointee |= BlockShape.forIndexMask(indexMask)
        return outcome
    }
}
