/// Writes one block of tokens in whichever DEFLATE block type is smallest (RFC 1951 3.2.3):
/// stored (3.2.4), fixed Huffman (3.2.6) or dynamic Huffman (3.2.7), sizes computed exactly.
enum DeflaterBlockWriter {
    /// Bytes per stored block: LEN is 16 bits (RFC 1951 3.2.4).
    static let maxStoredLength = 65535

    /// Writes `tokens` (which encode exactly `raw`) as one block, or as stored blocks if smaller
    /// (never when `raw` is nil: the bytes are gone).
    static func writeBlock(tokens: DeflaterTokenBuffer, raw: UnsafeRawBufferPointer?, isFinal: Bool,
                           to writer: DeflaterBitWriter) {
        var literalLengthFrequencies = Array(UnsafeBufferPointer(
            start: tokens.literalLengthFrequencies, count: DeflaterSymbols.literalLengthCount))
        literalLengthFrequencies[DeflaterSymbols.endOfBlock] += 1
        let distanceFrequencies = Array(UnsafeBufferPointer(
            start: tokens.distanceFrequencies, count: DeflaterSymbols.distanceCount))

        let header = DeflaterDynamicHeader(literalLengthFrequencies: literalLengthFrequencies,
                                   distanceFrequencies: distanceFrequencies)
        let dynamicBits = 3 + header.bitCount + dataBits(literalLengthFrequencies, distanceFrequencies,
                                                         header.literalLength.lengths, header.distance.lengths)
        let fixedBits = 3 + dataBits(literalLengthFrequencies, distanceFrequencies,
                                     DeflaterSymbols.fixedLiteralLengthLengths, DeflaterSymbols.fixedDistanceLengths)
        if let raw, storedBitCount(byteCount: raw.count, startBit: writer.bitPosition) <= min(fixedBits, dynamicBits) {
            writeStored(raw, isFinal: isFinal, to: writer)
            return
        }
        writer.reserve(min(fixedBits, dynamicBits) / 8 + 8)
        if fixedBits <= dynamicBits {
            writer.write(isFinal ? 0b011 : 0b010, 3)   // BFINAL, BTYPE 01 (LSB first)
            writeTokens(tokens, .fixedLiteralLength, .fixedDistance, to: writer)
        } else {
            writer.write(isFinal ? 0b101 : 0b100, 3)   // BFINAL, BTYPE 10
            header.write(to: writer)
            writeTokens(tokens, header.literalLength, header.distance, to: writer)
        }
    }

    /// Writes `raw` as stored blocks of up to 65535 bytes (at least one block, even when empty);
    /// only the last has BFINAL set if `isFinal`.
    static func writeStored(_ raw: UnsafeRawBufferPointer, isFinal: Bool, to writer: DeflaterBitWriter) {
        var start = 0
        repeat {
            let length = min(raw.count - start, maxStoredLength)
            let last = start + length == raw.count
            writer.reserve(8)
            writer.write(isFinal && last ? 1 : 0, 3)   // BFINAL, BTYPE 00
            writer.alignToByte()
            let len = UInt16(length)
            writer.appendByte(UInt8(truncatingIfNeeded: len))
            writer.appendByte(UInt8(truncatingIfNeeded: len >> 8))
            writer.appendByte(UInt8(truncatingIfNeeded: ~len))
            writer.appendByte(UInt8(truncatingIfNeeded: ~len >> 8))
            writer.appendBytes(UnsafeRawBufferPointer(rebasing: raw[start..<(start + length)]))
            start += length
        } while start < raw.count
    }

    /// Exact size of `writeStored` for `byteCount` bytes starting at bit `startBit`.
    static func storedBitCount(byteCount: Int, startBit: Int) -> Int {
        let blocks = max(1, (byteCount + maxStoredLength - 1) / maxStoredLength)
        // First header: 3 bits then padding to a byte; later headers start aligned: 3 + 5.
        let firstHeaderEnd = (startBit + 3 + 7) & ~7
        return (firstHeaderEnd - startBit) + (blocks - 1) * 8 + blocks * 32 + byteCount * 8
    }

    /// Bits of the Huffman-coded data (tokens and end-of-block) under the given code lengths.
    static func dataBits(_ literalLengthFrequencies: [Int], _ distanceFrequencies: [Int],
                         _ literalLengthLengths: [UInt8], _ distanceLengths: [UInt8]) -> Int {
        var bits = 0
        for symbol in 0..<DeflaterSymbols.literalLengthCount {
            var perSymbol = Int(literalLengthLengths[symbol])
            if symbol > DeflaterSymbols.endOfBlock { perSymbol += Int(DeflaterSymbols.lengthExtraBits[symbol - 257]) }
            bits += literalLengthFrequencies[symbol] * perSymbol
        }
        for symbol in 0..<DeflaterSymbols.distanceCount {
            bits += distanceFrequencies[symbol] * (Int(distanceLengths[symbol]) + Int(DeflaterSymbols.distanceExtraBits[symbol]))
        }
        return bits
    }

    /// Writes every token and the end-of-block code. Room must be reserved.
    private static func writeTokens(_ tokens: DeflaterTokenBuffer, _ literalLength: DeflaterHuffmanCode,
                                    _ distance: DeflaterHuffmanCode, to writer: DeflaterBitWriter) {
        literalLength.codes.withUnsafeBufferPointer { llCodes in
        literalLength.lengths.withUnsafeBufferPointer { llLengths in
        distance.codes.withUnsafeBufferPointer { dCodes in
        distance.lengths.withUnsafeBufferPointer { dLengths in
            // Tokens only hold symbols < 286 and < 30 and every table has at least 286 / 30
            // entries, so the unchecked reads below stay in bounds.
            guard let llC = llCodes.baseAddress, let llL = llLengths.baseAddress,
                  let dC = dCodes.baseAddress, let dL = dLengths.baseAddress else { return }
            let tokenBase = tokens.tokens, tokenCount = tokens.count
            writer.withCursor { cursor in
                for i in 0..<tokenCount {
                    let token = tokenBase[i]
                    if token & DeflaterTokenBuffer.matchFlag == 0 {
                        let s = Int(token)
                        cursor.write(UInt32(llC[s]), Int(llL[s]))
                    } else {
                        let length = Int((token >> 16) & 0x1FF)
                        let distanceValue = Int(token & 0x7FFF) &+ 1
                        let l = DeflaterSymbols.lengthSymbol(length)
                        // Code ≤ 15 bits plus extra ≤ 5 bits: one write of ≤ 20 bits.
                        cursor.write(UInt32(llC[l.symbol]) | UInt32(l.extra) << UInt32(llL[l.symbol]),
                                     Int(llL[l.symbol]) &+ l.extraBits)
                        let d = DeflaterSymbols.distanceSymbol(distanceValue)
                        // Code ≤ 15 bits plus extra ≤ 13 bits: ≤ 28 bits.
                        cursor.write(UInt32(dC[d.symbol]) | UInt32(d.extra) << UInt32(dL[d.symbol]),
                                     Int(dL[d.symbol]) &+ d.extraBits)
                    }
                }
                let eob = DeflaterSymbols.endOfBlock
                cursor.write(UInt32(llC[eob]), Int(llL[eob]))
            }
        }}}}
    }
}
