/// Writes dynamic-block headers (RFC 1951 3.2.7) for hand-made test streams.
///
/// Uses one complete code-length code for every header: symbols 0–12 get 4 bits and 13–18 get
/// 5 bits (13/16 + 6/32 = 1), so any sequence of code-length symbols can be sent.
enum DynamicHeaderWriter {
    static let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
    static let codeLengthLengths = (0..<19).map { $0 < 13 ? 4 : 5 }
    static let codeLengthCodes = StreamWrapping.canonicalCodes(codeLengthLengths)

    /// BFINAL/BTYPE 2, HLIT, HDIST, HCLEN 19, the code-length code, then `symbols`: code-length
    /// symbols with the value of their extra bits (16: 2 bits, 17: 3, 18: 7).
    static func write(_ w: inout TestBitWriter, final: Bool = true, hlit: Int, hdist: Int,
                      symbols: [(symbol: Int, extra: Int)]) {
        w.blockHeader(final: final, type: 2)
        w.bits(hlit - 257, 5)
        w.bits(hdist - 1, 5)
        w.bits(19 - 4, 4)
        for symbol in order { w.bits(codeLengthLengths[symbol], 3) }
        for (symbol, extra) in symbols {
            w.huffman(codeLengthCodes[symbol], codeLengthLengths[symbol])
            switch symbol {
            case 16: w.bits(extra, 2)
            case 17: w.bits(extra, 3)
            case 18: w.bits(extra, 7)
            default: break
            }
        }
    }

    /// Writes the literal/length and distance code lengths one symbol each (no run-length codes).
    static func write(_ w: inout TestBitWriter, final: Bool = true, literalLengths: [Int], distanceLengths: [Int]) {
        write(&w, final: final, hlit: literalLengths.count, hdist: distanceLengths.count,
              symbols: (literalLengths + distanceLengths).map { ($0, 0) })
    }

    /// Literal/length lengths of `count` entries (≥ 257), zero except the given symbols.
    static func lengths(_ count: Int, _ nonZero: [Int: Int]) -> [Int] {
        (0..<count).map { nonZero[$0] ?? 0 }
    }
}
