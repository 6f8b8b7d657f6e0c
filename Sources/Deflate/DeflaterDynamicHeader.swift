/// The codes of a dynamic Huffman block and their header (RFC 1951 3.2.7): HLIT, HDIST,
/// HCLEN, the code-length code lengths (3 bits each, in the permuted order) and the
/// run-length coded literal/length and distance code lengths.
struct DeflaterDynamicHeader {
    /// Literal/length code: at most 15 bits per code.
    let literalLength: DeflaterHuffmanCode
    /// Distance code: at most 15 bits per code.
    let distance: DeflaterHuffmanCode
    /// Code-length code: at most 7 bits per code (its lengths are sent in 3 bits).
    let codeLength: DeflaterHuffmanCode
    /// Literal/length lengths sent: 257...286.
    let hlit: Int
    /// Distance lengths sent: 1...30.
    let hdist: Int
    /// Code-length code lengths sent: 4...19.
    let hclen: Int
    /// The run-length coded lengths.
    let runLengths: DeflaterCodeLengthEncoder
    /// Size of the header after the 3 block-type bits.
    let bitCount: Int

    /// Builds optimal length-limited codes for the frequencies (end-of-block included).
    init(literalLengthFrequencies: [Int], distanceFrequencies: [Int]) {
        let literalLengthLengths = DeflaterCodeLengthBuilder.lengths(frequencies: literalLengthFrequencies, maxBits: 15)
        let distanceLengths = DeflaterCodeLengthBuilder.lengths(frequencies: distanceFrequencies, maxBits: 15)
        literalLength = DeflaterHuffmanCode(lengths: literalLengthLengths)
        distance = DeflaterHuffmanCode(lengths: distanceLengths)
        // Trailing unused codes need not be sent; HLIT ≥ 257 and HDIST ≥ 1 by definition.
        hlit = max(257, (literalLengthLengths.lastIndex { $0 != 0 } ?? 0) + 1)
        hdist = max(1, (distanceLengths.lastIndex { $0 != 0 } ?? 0) + 1)
        runLengths = DeflaterCodeLengthEncoder(lengths: Array(literalLengthLengths[0..<hlit]) + Array(distanceLengths[0..<hdist]))
        let codeLengthLengths = DeflaterCodeLengthBuilder.lengths(frequencies: runLengths.frequencies, maxBits: 7)
        codeLength = DeflaterHuffmanCode(lengths: codeLengthLengths)
        var sent = DeflaterSymbols.codeLengthCount
        while sent > 4 && codeLengthLengths[DeflaterSymbols.codeLengthOrder[sent - 1]] == 0 { sent -= 1 }
        hclen = sent

        var bits = 5 + 5 + 4 + 3 * hclen
        for symbol in 0..<DeflaterSymbols.codeLengthCount {
            bits += runLengths.frequencies[symbol] * (Int(codeLengthLengths[symbol]) + DeflaterCodeLengthEncoder.extraBits(symbol))
        }
        bitCount = bits
    }

    /// Writes the header (not the 3 block-type bits). Room must be reserved.
    func write(to writer: DeflaterBitWriter) {
        writer.write(UInt32(hlit - 257), 5)
        writer.write(UInt32(hdist - 1), 5)
        writer.write(UInt32(hclen - 4), 4)
        for i in 0..<hclen {
            writer.write(UInt32(codeLength.lengths[DeflaterSymbols.codeLengthOrder[i]]), 3)
        }
        for entry in runLengths.entries {
            let symbol = Int(entry.symbol)
            writer.write(UInt32(codeLength.codes[symbol]), Int(codeLength.lengths[symbol]))
            let extraBits = DeflaterCodeLengthEncoder.extraBits(symbol)
            if extraBits > 0 { writer.write(UInt32(entry.extra), extraBits) }
        }
    }
}
