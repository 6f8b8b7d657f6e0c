/// Decodes one block of a sequential Huffman scan (T.81 F.2.2) into raw, not dequantized,
/// coefficients (libjpeg's JCOEF, 16 bits) in natural order: the storage of 12-bit images, whose
/// dequantized values do not fit the 16-bit products the 8-bit path keeps (``SequentialBlockDecoder``).
///
/// The steps are libjpeg's `decode_mcu_slow`: the DC difference added to the predictor (an
/// `int`; overflow is an error, as in libjpeg-turbo), each value stored truncated to 16 bits, a
/// run past coefficient 63 landing on 63 (``ZigZag/order``).
enum RawSequentialBlockDecoder {
    /// Decodes into `block` (all zero on entry); `predictor` is the component's last DC value.
    static func decode(into block: UnsafeMutablePointer<Int16>, dc: HuffmanLookup, ac: HuffmanLookup,
                       predictor: inout Int32, reader: inout BitReader, zigzag: UnsafePointer<UInt8>) -> SequentialBlockDecoder.Outcome {
        var outcome = SequentialBlockDecoder.Outcome.decoded
        var size = reader.decodeSymbol(dc)
        if size < 0 { outcome = .badCode; size = 0 }
        let difference = size == 0 ? 0 : reader.receiveExtended(size)
        let (value, overflow) = predictor.addingReportingOverflow(difference)
        if overflow { return .predictorOverflow }
        predictor = value
        block[0] = Int16(truncatingIfNeeded: value)
        var k = 1
        while k < 64 {
            // Fast path: a short code and its extra bits resolved by one table read.
            if reader.bitCount < BitReader.symbolReadBits { reader.refill() }
            let entry = ac.fastAC[reader.peek(HuffmanTable.fastACBits)]
            if entry & (1 << 12) != 0 {
                reader.consume(Int(entry & 0xFF))
                k &+= Int((entry >> 8) & 15)     // k < 64 and the run ≤ 15: inside ZigZag.order
                block[Int(zigzag[k])] = Int16(truncatingIfNeeded: entry >> 16)
                k &+= 1
                continue
            }
            if entry & (1 << 13) != 0 {
                reader.consume(Int(entry & 0xFF))
                break
            }
            var symbol = reader.decodeSymbol(ac)
            if symbol < 0 { outcome = .badCode; symbol = 0 }
            let run = symbol >> 4, acSize = symbol & 15
            if acSize != 0 {
                k += run        // at most 63 + 15: ZigZag.order has 16 spare entries
                block[Int(zigzag[k])] = Int16(truncatingIfNeeded: reader.receiveExtended(acSize))
            } else {
                if run != 15 { break }   // EOB
                k += 15                  // ZRL: sixteen zeros with the k += 1 below
            }
            k += 1
        }
        return outcome
    }
}
