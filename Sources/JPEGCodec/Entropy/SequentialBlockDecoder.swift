/// Decodes the 64 coefficients of one block of a sequential Huffman scan (T.81 F.2.2).
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

    /// Decodes into `block` (all zero, or what an earlier scan of the component left: like libjpeg,
    /// only DC and the non-zero AC coefficients are written), dequantized with `quantization`, in
    /// natural order; `predictor` is the component's last DC value. `shape` is widened to cover the
    /// result's ``BlockShape`` (the renderer uses it to clear only what was written).
    @inline(__always)
    static func decode(into block: UnsafeMutablePointer<Int32>, shape: UnsafeMutablePointer<UInt8>,
                       quantization: UnsafePointer<Int32>, dc: HuffmanLookup, ac: HuffmanLookup,
                       predictor: inout Int32, reader: inout BitReader, zigzag: UnsafePointer<UInt8>) -> Outcome {
        // The bit-reader steps are spelled out here with its non-mutating helpers (lookup, peek,
        // consume) rather than its mutating ones, which the optimiser does not reliably inline
        // this deep; a call taking the reader `inout` would keep it in memory for the whole loop.
        var outcome = Outcome.decoded
        // F.2.2.1: DC difference category, then the difference itself.
        if reader.bitCount < BitReader.symbolReadBits { reader.refill() }
        let dcCode = BitReader.symbol(atTopOf: reader.accumulator, dc)
        reader.consume(dcCode.length)
        var size = dcCode.symbol
        if size < 0 { outcome = .badCode; size = 0 }
        var difference: Int32 = 0
        if size != 0 {
            if reader.bitCount < size { reader.refill() }
            difference = BitReader.extend(Int32(truncatingIfNeeded: reader.peek(size)), size: size)
            reader.consume(size)
        }
        let (value, overflow) = predictor.addingReportingOverflow(difference)
        if overflow { return .predictorOverflow }
        predictor = value
        // libjpeg keeps the prediction in an int and stores it truncated to 16 bits (a JCOEF).
        // Products are kept to 16 bits too, as libjpeg-turbo's SIMD dequantization (a 16-bit
        // multiply) keeps them; a valid file's dequantized coefficients always fit.
        block[0] = Int32(Int16(truncatingIfNeeded: Int32(Int16(truncatingIfNeeded: value)) &* quantization[0]))
        // F.2.2.2: AC run/size symbols until EOB or the end of the block.
        var k = 1
        var lastIndex = 0
        defer { shape.pointee = max(shape.pointee, BlockShape.forLastIndex(lastIndex)) }
        while k < 64 {
            // Fast path: short code and its extra bits resolved by one table read.
            if reader.bitCount < BitReader.symbolReadBits { reader.refill() }
            let entry = ac.fastAC[reader.peek(HuffmanTable.lookaheadBits)]
            if entry & (1 << 12) != 0 {
                reader.consume(Int(entry & 0xFF))
                // k < 64 and the run ≤ 15 (ZigZag.order has 80 entries), so no overflow is possible.
                k &+= Int((entry >> 8) & 15)
                let natural = Int(zigzag[k])
                block[natural] = Int32(Int16(truncatingIfNeeded: (entry >> 16) &* quantization[natural]))
                lastIndex = k
                k &+= 1
                continue
            }
            if entry & (1 << 13) != 0 {
                reader.consume(Int(entry & 0xFF))
                break
            }
            // Slow path: the code alone (perhaps longer than 9 bits), then its extra bits.
            let acCode = BitReader.symbol(atTopOf: reader.accumulator, ac)
            reader.consume(acCode.length)
            var symbol = acCode.symbol
            if symbol < 0 { outcome = .badCode; symbol = 0 }
            let run = symbol >> 4
            let acSize = symbol & 15
            if acSize != 0 {
                k += run        // at most 63 + 15: ZigZag.order has 16 spare entries
                let natural = Int(zigzag[k])
                if reader.bitCount < acSize { reader.refill() }
                let value = BitReader.extend(Int32(truncatingIfNeeded: reader.peek(acSize)), size: acSize)
                reader.consume(acSize)
                block[natural] = Int32(Int16(truncatingIfNeeded: value &* quantization[natural]))
                lastIndex = k
                k += 1
            } else {
                if run != 15 { break }   // EOB
                k += 16                  // ZRL: sixteen zeros
            }
        }
        return outcome
    }
}
