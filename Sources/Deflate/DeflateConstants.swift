/// Numbers fixed by RFC 1951 (DEFLATE).
enum DeflateConstants {
    /// Largest distance a match may reach back: the window (RFC 1951 2).
    static let windowSize = 32_768
    /// Longest match (RFC 1951 3.2.5, length code 285).
    static let maxMatch = 258
    /// Longest Huffman codeword (RFC 1951 3.2.2).
    static let maxCodeLength = 15

    /// Base lengths of length symbols 257...285 (RFC 1951 3.2.5).
    static let lengthBase: [UInt16] = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
                                       35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    /// Extra bits of length symbols 257...285.
    static let lengthExtraBits: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2,
                                           3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    /// Base distances of distance symbols 0...29 (RFC 1951 3.2.5).
    static let distanceBase: [UInt16] = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193,
                                         257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145,
                                         8193, 12289, 16385, 24577]
    /// Extra bits of distance symbols 0...29.
    static let distanceExtraBits: [UInt8] = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6,
                                             7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]
    /// The order in which code-length code lengths are sent (RFC 1951 3.2.7).
    static let codeLengthOrder: [Int] = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    /// Code lengths of the fixed literal/length code (RFC 1951 3.2.6): 0–143: 8, 144–255: 9, 256–279: 7, 280–287: 8.
    static let fixedLiteralLengths: [UInt8] = (0..<288).map { symbol in
        switch symbol {
        case 0..<144: return 8
        case 144..<256: return 9
        case 256..<280: return 7
        default: return 8
        }
    }
    /// Code lengths of the fixed distance code: all 32 symbols have 5 bits.
    static let fixedDistanceLengths = [UInt8](repeating: 5, count: 32)
}
