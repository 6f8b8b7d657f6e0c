import ImageCore

/// Read-only view of a ``HuffmanTable``'s arrays, passed by value into hot loops (no reference counting).
///
/// `lookup` has 2^9 entries indexed by the next 9 bits of the stream. Entry layout (UInt16):
/// bits 8...15 = code length 1...9, bits 0...7 = symbol; 0 means the code is longer than 9 bits
/// and `maxCode`/`valueOffset` (T.81 F.2.2.3) decode it. Example: the code `00` of length 2
/// for symbol 0x05 fills entries 0...127 with `2 << 8 | 0x05` = 0x0205.
struct HuffmanLookup {
    /// 512 entries, see above.
    let lookup: UnsafePointer<UInt16>
    /// `maxCode[l]` = largest code of length l, or -1 if none, for l = 1...16; `maxCode[17]` is a sentinel above every code.
    let maxCode: UnsafePointer<Int32>
    /// `symbols[code + valueOffset[l]]` is the symbol of a code of length l.
    let valueOffset: UnsafePointer<Int32>
    /// The symbols, 256 entries (unused ones 0).
    let symbols: UnsafePointer<UInt8>
    /// AC decoding in one step, indexed by the next ``HuffmanTable/fastACBits`` (10) bits. 0 when
    /// the code is longer than that or
    /// is a size-0 symbol other than EOB (0x00) and ZRL (0xF0). Otherwise bits 8...11 = zero run and:
    /// - ``HuffmanTable/fastACValue`` (bit 12): the code and its extra bits fit in the 10; bits
    ///   0...7 = bits to consume (code + extra bits), bits 16...31 = the coefficient (signed).
    ///   Example: code `00` (length 2) for symbol 0x01 (run 0, size 1) followed by bit 1 gives
    ///   3 | 1 << 12 | 1 << 16.
    /// - ``HuffmanTable/fastACEndOfBlock`` (bit 13): EOB; bits 0...7 = code length.
    ///   ``HuffmanTable/fastACSizeOne`` (bit 15) is set besides when the size is 1 (the value ±1
    ///   is then the sign of the whole entry): progressive refinement reads such a code and its
    ///   one extra bit in one step.
    /// - ``HuffmanTable/fastACCodeOnly`` (bit 14): the code fits but its extra bits do not, or
    ///   ZRL; bits 0...7 = code length, bits 16...19 = size (0 for ZRL).
    let fastAC: UnsafePointer<Int32>

    /// A DC table's one-read entries, in the storage an AC table uses for ``fastAC`` (a table is
    /// built for one class, T.81 B.2.4.2): indexed by the next ``HuffmanTable/fastACBits`` bits,
    /// an entry whose code and difference bits fit there is bits 0...7 = bits to consume,
    /// ``HuffmanTable/fastACValue`` set and bits 16...31 = the difference, sign-extended (F.2.2.1);
    /// 0 otherwise. Example: code `00` for size 2, then bits `01`: 4 | 1 << 12 | −2 << 16.
    var fastDC: UnsafePointer<Int32> { fastAC }
}

/// A Huffman table built for decoding (T.81 Annex C and F.2.2.3), with a 9-bit lookahead table.
///
/// Validation follows libjpeg: a code set that does not fit (over-subscribed, or using the all-ones
/// code of some length) is rejected, and DC tables may only hold symbols 0...15.
final class HuffmanTable {
    /// Bits looked up at once; codes up to this long decode with one table read.
    static let lookaheadBits = 9
    /// Bits that index ``HuffmanLookup/fastAC``: longer than `lookaheadBits`, so that more codes
    /// come with their extra bits in one read (a 2^fastACBits-entry table of 4-byte entries per
    /// AC table, which stays in the level-1 cache beside the others).
    static let fastACBits = 10
    /// ``HuffmanLookup/fastAC`` flags (see there).
    static let fastACValue: Int32 = 1 << 12
    static let fastACEndOfBlock: Int32 = 1 << 13
    static let fastACCodeOnly: Int32 = 1 << 14
    static let fastACSizeOne: Int32 = 1 << 15

    private let lookupStorage: UnsafeMutablePointer<UInt16>
    private let maxCodeStorage: UnsafeMutablePointer<Int32>
    private let valueOffsetStorage: UnsafeMutablePointer<Int32>
    private let symbolStorage: UnsafeMutablePointer<UInt8>
    private let fastACStorage: UnsafeMutablePointer<Int32>

    /// The view for hot loops; valid while this table is alive.
    let view: HuffmanLookup

    /// Builds the table; `offset` and `name` locate errors ("DC table 0").
    init(_ definition: HuffmanTableDefinition, isDC: Bool, name: String, offset: Int) throws {
        let counts = definition.counts.map(Int.init)
        let symbols = definition.symbols
        guard counts.count == 16, symbols.count == counts.reduce(0, +), symbols.count <= 256 else {
            throw ImageDecodingError(.invalidData, at: offset, "Huffman \(name): counts and symbols disagree")
        }
        if isDC, let bad = symbols.first(where: { $0 > 15 }) {
            throw ImageDecodingError(.invalidData, at: offset,
                                     "Huffman \(name) is used for DC but holds symbol \(bad); DC symbols are 0...15")
        }
        // C.1 and C.2: code lengths, then canonical codes, rejecting sets that do not fit.
        var lengths: [Int] = []
        for length in 1...16 { lengths += repeatElement(length, count: counts[length - 1]) }
        var codes = [Int](repeating: 0, count: lengths.count)
        var code = 0, index = 0, length = lengths.first ?? 1
        while index < lengths.count {
            while index < lengths.count && lengths[index] == length {
                codes[index] = code
                code += 1
                index += 1
            }
            // `code` is one past the last code of this length and must still fit in `length`
            // bits: no all-ones code, no over-subscription.
            guard code < 1 << length else {
                throw ImageDecodingError(.invalidData, at: offset,
                                         "Huffman \(name) is over-subscribed: its code lengths do not form a prefix code")
            }
            code <<= 1
            length += 1
        }

        lookupStorage = .allocate(capacity: 1 << Self.lookaheadBits)
        lookupStorage.initialize(repeating: 0, count: 1 << Self.lookaheadBits)
        maxCodeStorage = .allocate(capacity: 18)
        maxCodeStorage.initialize(repeating: -1, count: 18)
        valueOffsetStorage = .allocate(capacity: 18)
        valueOffsetStorage.initialize(repeating: 0, count: 18)
        symbolStorage = .allocate(capacity: 256)
        symbolStorage.initialize(repeating: 0, count: 256)
        for (i, symbol) in symbols.enumerated() { symbolStorage[i] = symbol }

        // F.2.2.3: per length, the largest code and the offset from a code to its symbol index.
        var first = 0
        for length in 1...16 where counts[length - 1] > 0 {
            valueOffsetStorage[length] = Int32(first - codes[first])
            first += counts[length - 1]
            maxCodeStorage[length] = Int32(codes[first - 1])
        }
        maxCodeStorage[17] = Int32.max

        // Lookahead: every 9-bit pattern that starts with a short code maps to that code.
        let bits = Self.lookaheadBits
        for (i, codeLength) in lengths.enumerated() where codeLength <= bits {
            let fill = 1 << (bits - codeLength)
            let start = codes[i] << (bits - codeLength)
            let entry = UInt16(codeLength << 8) | UInt16(symbols[i])
            for slot in start..<(start + fill) { lookupStorage[slot] = entry }
        }
        let acBits = Self.fastACBits
        fastACStorage = .allocate(capacity: 1 << acBits)
        fastACStorage.initialize(repeating: 0, count: 1 << acBits)
        for (i, codeLength) in lengths.enumerated() where isDC && codeLength <= acBits {
            // DC: size category and difference in one read (`fastDC`); symbols are 0...15 here.
            let size = Int(symbols[i])
            guard codeLength + size <= acBits else { continue }
            let start = codes[i] << (acBits - codeLength)
            for slot in start..<(start + (1 << (acBits - codeLength))) {
                let extra = size == 0 ? 0 : Int32((slot >> (acBits - codeLength - size)) & ((1 << size) - 1))
                let value = size == 0 ? 0 : (extra < Int32(1) << Int32(size - 1) ? extra - (Int32(1) << Int32(size)) + 1 : extra)
                fastACStorage[slot] = Int32(codeLength + size) | Self.fastACValue | value << 16
            }
        }
        for (i, codeLength) in lengths.enumerated() where !isDC && codeLength <= acBits {
            let run = Int32(symbols[i] >> 4), size = Int(symbols[i] & 15)
            let start = codes[i] << (acBits - codeLength)
            for slot in start..<(start + (1 << (acBits - codeLength))) {
                if size == 0 {
                    if run == 0 { fastACStorage[slot] = Int32(codeLength) | Self.fastACEndOfBlock }
                    if run == 15 { fastACStorage[slot] = Int32(codeLength) | run << 8 | Self.fastACCodeOnly }
                } else if codeLength + size <= acBits {
                    let extra = Int32((slot >> (acBits - codeLength - size)) & ((1 << size) - 1))
                    // T.81 F.2.2.1 EXTEND: values below 2^(size-1) are negative.
                    let value = extra < Int32(1) << Int32(size - 1) ? extra - (Int32(1) << Int32(size)) + 1 : extra
                    fastACStorage[slot] = Int32(codeLength + size) | run << 8 | Self.fastACValue | value << 16
                        | (size == 1 ? Self.fastACSizeOne : 0)
                } else {
                    fastACStorage[slot] = Int32(codeLength) | run << 8 | Self.fastACCodeOnly | Int32(size) << 16
                }
            }
        }
        view = HuffmanLookup(lookup: lookupStorage, maxCode: maxCodeStorage,
                             valueOffset: valueOffsetStorage, symbols: symbolStorage, fastAC: fastACStorage)
    }

    deinit {
        lookupStorage.deallocate()
        maxCodeStorage.deallocate()
        valueOffsetStorage.deallocate()
        symbolStorage.deallocate()
        fastACStorage.deallocate()
    }
}
