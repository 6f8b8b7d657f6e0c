/// A canonical Huffman code ready for writing: per symbol its length and its code with the bits
/// reversed, because DEFLATE sends Huffman codes most-significant bit first into an LSB-first
/// bit stream (RFC 1951 3.1.1).
struct DeflaterHuffmanCode {
    /// Code length per symbol (0: unused).
    var lengths: [UInt8]
    /// Bit-reversed code per symbol, ready for ``DeflaterBitWriter/write(_:_:)``.
    var codes: [UInt16]

    /// The canonical code of `lengths` (RFC 1951 3.2.2): shorter codes first, codes of one
    /// length consecutive in symbol order. Lengths must describe a valid prefix code.
    init(lengths: [UInt8]) {
        self.lengths = lengths
        var lengthCount = [Int](repeating: 0, count: 16)
        for length in lengths { lengthCount[Int(length)] += 1 }
        lengthCount[0] = 0
        var nextCode = [Int](repeating: 0, count: 16)
        var code = 0
        for bits in 1...15 {
            code = (code + lengthCount[bits - 1]) << 1
            nextCode[bits] = code
        }
        var codes = [UInt16](repeating: 0, count: lengths.count)
        for (symbol, length) in lengths.enumerated() where length > 0 {
            let bits = Int(length)
            let value = nextCode[bits]
            nextCode[bits] += 1
            // Reverse the `bits` low bits of value.
            var reversed = 0
            for i in 0..<bits where value & (1 << i) != 0 { reversed |= 1 << (bits - 1 - i) }
            codes[symbol] = UInt16(truncatingIfNeeded: reversed)
        }
        self.codes = codes
    }

    /// The fixed literal/length code (RFC 1951 3.2.6).
    static let fixedLiteralLength = DeflaterHuffmanCode(lengths: DeflaterSymbols.fixedLiteralLengthLengths)
    /// The fixed distance code (RFC 1951 3.2.6).
    static let fixedDistance = DeflaterHuffmanCode(lengths: DeflaterSymbols.fixedDistanceLengths)
}
