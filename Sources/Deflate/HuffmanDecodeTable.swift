/// What a Huffman table decodes, which decides how each symbol becomes a table entry.
enum HuffmanAlphabet {
    /// Literal/length alphabet: 0–255 literals, 256 end of block, 257–285 lengths, 286–287 invalid.
    case literalLength
    /// Distance alphabet: 0–29 distances, 30–31 invalid.
    case distance
    /// Code-length alphabet of dynamic block headers: 0–18.
    case codeLength
}

/// Packed decode-table entries (one `UInt32` each).
///
/// Bit layout:
/// - bits 0–4: bits the entry consumes in total: the codeword length plus, for a length or
///   distance, its extra bits (at most 15 + 13 = 28); for an entry in a subtable the codeword
///   length counts only the bits after the main table's; for a subtable link, the main table's bits.
///   Bits 5 and 6 are zero and bit 7 is ``hasExtraBits``, so the low 6 bits are the count itself:
///   the fast loop shifts the bit buffer by the whole entry (a shift uses the amount's low 6 bits)
///   and subtracts the whole entry from a bit count whose low 6 bits alone are kept exact, without
///   masking.
/// - bit 7: ``hasExtraBits``, set on length and distance entries whose value is a base the extra
///   bits must be added to. Clear on a length whose value is exact: lengths 3–10 (no extra bits)
///   and *folded* lengths: a length codeword of L bits with E extra bits where L + E fits the main
///   table gets one entry per extra-bits value x, with value base + x and a count of L + E (the
///   codeword-length field stays L, the least bits the token can take while its codeword is
///   incomplete). So the fast loop takes most lengths straight from the entry, and the branch that
///   skips the extra bits is rarely mispredicted.
/// - bits 8–11: the codeword length alone (so the extra bits are `(bits & mask(total)) >> codeword`),
///   or for a link, the subtable's index bits.
/// - bits 12–15 and 31: kind. ``literal`` is bit 31 alone (a sign test); ``base`` is no bit (so
///   `entry >> 8` of a base entry is its codeword length, with no mask); the rare kinds
///   (``endOfBlock``, ``link``, ``invalid``) all carry bit 15, ``exceptional``, so one test
///   sends them aside.
/// - bits 16–30: value: the literal byte, the length or distance base, or a link's subtable offset.
///
/// Example: length symbol 265 (base 11, 1 extra bit) with a 7-bit codeword is
/// `11 << 16 | 7 << 8 | base | 8`.
enum HuffmanEntry {
    /// A literal byte.
    static let literal: UInt32 = 1 << 31
    /// A length or distance base with extra bits (or a code-length symbol).
    static let base: UInt32 = 0
    /// Set in every kind the fast loop handles aside: end of block, link, invalid.
    static let exceptional: UInt32 = 1 << 15
    /// End of block (symbol 256).
    static let endOfBlock: UInt32 = exceptional | 1 << 14
    /// A link to a subtable for codewords longer than the main table's bits.
    static let link: UInt32 = exceptional | 1 << 13
    /// A symbol that must not occur (286–287, 30–31, or an unused code of an incomplete code).
    static let invalid: UInt32 = exceptional | 1 << 12
    /// Set on a length or distance entry that has extra bits (see the layout above).
    static let hasExtraBits: UInt32 = 1 << 7
    /// Mask of the kind bits.
    static let kindMask: UInt32 = 1 << 31 | 0xF000
    /// Mask of the consumed-bits field.
    static let lengthMask: UInt32 = 0x1F

    /// Mask of the codeword-length field once shifted down by 8.
    static let codewordMask: UInt32 = 0xF

    /// The subtable entry a link entry points to, indexed by the bits that follow the main
    /// table's (`bitsAfterMain`, LSB first).
    @inline(__always)
    static func subtableEntry(_ table: UnsafePointer<UInt32>, link: UInt32, bitsAfterMain: UInt64) -> UInt32 {
        table[Int(truncatingIfNeeded: link &>> 16) &+ Int(truncatingIfNeeded: bitsAfterMain & ((1 &<< UInt64((link &>> 8) & 0xF)) &- 1))]
    }

    /// Packs a folded length entry (see the layout above): `length` is the codeword length, `extra`
    /// the extra bits, `value` the length itself (base plus the extra bits' value).
    @inline(__always)
    static func makeFolded(length: Int, extra: Int, value: Int) -> UInt32 {
        UInt32(truncatingIfNeeded: value) << 16 | UInt32(truncatingIfNeeded: length) << 8 | base | UInt32(truncatingIfNeeded: length + extra)
    }

    /// Packs an entry: `length` is the codeword length (a link's main-table bits), `extra` the
    /// extra bits (a link's subtable bits).
    @inline(__always)
    static func make(length: Int, kind: UInt32, extra: Int, value: Int) -> UInt32 {
        let total = kind == link ? length : length + extra
        let field8 = kind == link ? extra : length
        let flag = kind == base && extra > 0 ? hasExtraBits : 0
        return UInt32(truncatingIfNeeded: value) << 16 | UInt32(truncatingIfNeeded: field8) << 8 | kind | flag | UInt32(truncatingIfNeeded: total)
    }
}

/// A failed table build: which rule the code lengths broke.
enum HuffmanBuildFailure: Error {
    case oversubscribed
    case incomplete
}

/// Builds two-level lookup tables for canonical Huffman codes (RFC 1951 3.2.2).
///
/// The main table is indexed by the next `mainBits` input bits (LSB first, so codewords are
/// stored bit-reversed); codewords longer than that go through a link to a subtable indexed by
/// the following bits. Every subtable of one table has the same size, `2^(maxLength - mainBits)`,
/// which keeps the builder simple and costs at most a few thousand entries.
enum HuffmanTableBuilder {
    /// Main-table bits and total capacity (main + worst-case subtables) for each alphabet.
    /// Literal/length: 2^11 + 288 links × 2^(15-11) = 2048 + 4608 = 6656.
    /// Distance: 2^8 + 32 links × 2^(15-8) = 256 + 4096 = 4352.
    /// Code length: 2^7 (codewords are at most 7 bits, so no subtables).
    static func layout(_ alphabet: HuffmanAlphabet) -> (mainBits: Int, capacity: Int) {
        switch alphabet {
        case .literalLength: return (11, 6656)
        case .distance: return (8, 4352)
        case .codeLength: return (7, 128)
        }
    }

    /// Fills `table` for the code with the given lengths.
    ///
    /// An incomplete code is accepted only where zlib accepts it: a single codeword of length 1
    /// (literal/length or distance), or no codewords at all (distance: a block of literals only).
    ///
    /// A complete code (every block's, in practice) is built in canonical order, shortest
    /// codewords first: the codewords of each length go into the first `2^length` entries, then
    /// those entries are copied after themselves (one block copy), which repeats each codeword
    /// for the next bit, until the main table is full. Every entry is written once by a copy
    /// instead of by a strided loop per symbol. ``buildCarefully(lengths:count:alphabet:into:)``
    /// is the symbol-order twin (and builds the incomplete codes).
    static func build(lengths: UnsafePointer<UInt8>, count: Int, alphabet: HuffmanAlphabet,
                      into table: UnsafeMutablePointer<UInt32>) throws(HuffmanBuildFailure) {
        let (mainBits, capacity) = layout(alphabet)
        var counts = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let complete = try withUnsafeMutableBytes(of: &counts) { countsRaw throws(HuffmanBuildFailure) -> Bool in
            let lengthCounts = countsRaw.bindMemory(to: Int.self)
            for symbol in 0..<count { lengthCounts[Int(lengths[symbol] & 15)] &+= 1 }
            lengthCounts[0] = 0
            var left = 1
            for length in 1...DeflateConstants.maxCodeLength {
                left = (left &<< 1) &- lengthCounts[length]
                if left < 0 { throw .oversubscribed }
            }
            return left == 0
        }
        guard complete else {
            try buildCarefully(lengths: lengths, count: count, alphabet: alphabet, into: table)
            return
        }
        withUnsafeMutableBytes(of: &counts) { countsRaw in
            let lengthCounts = countsRaw.bindMemory(to: Int.self)
            withUnsafeTemporaryAllocation(of: UInt16.self, capacity: max(count, 1)) { sorted in
                // Symbols by codeword length, in symbol order within a length (counting sort).
                var maxLength = 0
                withUnsafeTemporaryAllocation(of: Int.self, capacity: 16) { starts in
                    var start = 0
                    for length in 0..<16 {
                        starts[length] = start
                        start &+= lengthCounts[length]
                        if lengthCounts[length] > 0 { maxLength = length }
                    }
                    for symbol in 0..<count {
                        let length = Int(lengths[symbol] & 15)
                        if length == 0 { continue }
                        sorted[starts[length]] = UInt16(truncatingIfNeeded: symbol)
                        starts[length] &+= 1
                    }
                }
                // `codeword`: the next codeword of the current length, bit reversed (the table's
                // index); a longer length continues from the same value (a canonical code's next
                // codeword of length + 1 is the next one of length with a 0 appended).
                var codeword = 0
                var next = 0
                var length = 1
                var finished = false
                /// Moves `codeword` to the next codeword of `length` bits, or sets `finished`.
                @inline(__always) func advance(_ length: Int) {
                    let mask = (1 &<< length) &- 1
                    if codeword == mask { finished = true; return }
                    // Adding 1 in canonical (reversed) order: set the highest 0 bit, clear those above.
                    let bit = 1 &<< (Int.bitWidth &- 1 &- (codeword ^ mask).leadingZeroBitCount)
                    codeword = (codeword & (bit &- 1)) | bit
                }
                // Length symbols placed in the main table whose extra bits fit it too (at most
                // the 20 of 265–284): folded once the main table is complete.
                templates(alphabet).withUnsafeBufferPointer { templates in
                    withUnsafeTemporaryAllocation(of: (symbol: Int, codeword: Int, length: Int).self, capacity: 32) { folded in
                        var foldedCount = 0
                        while true {
                            // A codeword of `length` bits: its symbol's template plus `length << 8 | length`.
                            let lengthBits = UInt32(truncatingIfNeeded: length &<< 8 | length)
                            for _ in 0..<lengthCounts[length] {
                                let symbol = Int(sorted[next])
                                table[codeword] = templates[symbol] &+ lengthBits
                                if alphabet == .literalLength && foldedCount < 32
                                    && foldedExtraBits(symbol, length: length, mainBits: mainBits) > 0 {
                                    folded[foldedCount] = (symbol, codeword, length)
                                    foldedCount &+= 1
                                }
                                next &+= 1
                                advance(length)
                            }
                            if length == mainBits { break }
                            // Entries [0, 2^length) are final for codewords of `length` bits or fewer:
                            // the next bit's two values both lead to them.
                            (table + (1 &<< length)).update(from: table, count: 1 &<< length)
                            length &+= 1
                        }
                        for index in 0..<foldedCount {
                            let (symbol, codeword, length) = folded[index]
                            writeFolded(symbol, reversed: codeword, length: length, mainBits: mainBits, into: table)
                        }
                    }
                }
                // Longer codewords, in canonical order, so those sharing a main-table prefix come
                // together: one subtable each, of `2^(maxLength - mainBits)` entries.
                guard !finished, maxLength > mainBits else { return }
                let mainSize = 1 &<< mainBits
                let subBits = maxLength &- mainBits
                let invalid = HuffmanEntry.make(length: 1, kind: HuffmanEntry.invalid, extra: 0, value: 0)
                var subOffset = mainSize
                var prefix = -1
                var start = 0
                for length in (mainBits &+ 1)...maxLength {
                    for _ in 0..<lengthCounts[length] {
                        if codeword & (mainSize &- 1) != prefix {
                            prefix = codeword & (mainSize &- 1)
                            // capacity is the proven worst case (see layout), so this never fails.
                            guard subOffset &+ (1 &<< subBits) <= capacity else { return }
                            table[prefix] = HuffmanEntry.make(length: mainBits, kind: HuffmanEntry.link,
                                                              extra: subBits, value: subOffset)
                            (table + subOffset).initialize(repeating: invalid, count: 1 &<< subBits)
                            start = subOffset
                            subOffset &+= 1 &<< subBits
                        }
                        let subLength = length &- mainBits
                        let entry = makeEntry(Int(sorted[next]), length: subLength, alphabet)
                        next &+= 1
                        var index = codeword &>> mainBits
                        while index < 1 &<< subBits {
                            table[start &+ index] = entry
                            index &+= 1 &<< subLength
                        }
                        advance(length)
                    }
                }
            }
        }
    }

    /// ``build(lengths:count:alphabet:into:)`` symbol by symbol: each codeword's entries written
    /// by a strided loop. Builds the incomplete codes, and is the twin the tests compare with.
    static func buildCarefully(lengths: UnsafePointer<UInt8>, count: Int, alphabet: HuffmanAlphabet,
                               into table: UnsafeMutablePointer<UInt32>) throws(HuffmanBuildFailure) {
        let (mainBits, capacity) = layout(alphabet)
        var counts = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var nextCode = counts
        try withUnsafeMutableBytes(of: &counts) { countsRaw throws(HuffmanBuildFailure) in
            let lengthCounts = countsRaw.bindMemory(to: Int.self)
            for symbol in 0..<count { lengthCounts[Int(lengths[symbol] & 15)] += 1 }
            lengthCounts[0] = 0
            var left = 1
            var maxLength = 0
            for length in 1...DeflateConstants.maxCodeLength {
                left = (left << 1) - lengthCounts[length]
                if left < 0 { throw .oversubscribed }
                if lengthCounts[length] > 0 { maxLength = length }
            }
            if left > 0 {
                let singleCode = maxLength == 1 && alphabet != .codeLength
                let noCodes = maxLength == 0 && alphabet == .distance
                if !singleCode && !noCodes { throw .incomplete }
            }
            // Unused slots stay invalid; they consume one bit so the careful decoder can tell
            // "invalid" from "need more bits" once at least one bit is available.
            let invalid = HuffmanEntry.make(length: 1, kind: HuffmanEntry.invalid, extra: 0, value: 0)
            let mainSize = 1 << mainBits
            for index in 0..<mainSize { table[index] = invalid }
            withUnsafeMutableBytes(of: &nextCode) { nextRaw in
                let next = nextRaw.bindMemory(to: Int.self)
                var code = 0
                for length in 1...DeflateConstants.maxCodeLength {
                    code = (code + lengthCounts[length - 1]) << 1
                    next[length] = code
                }
                let subBits = max(maxLength - mainBits, 0)
                var subOffset = mainSize
                for symbol in 0..<count {
                    let length = Int(lengths[symbol])
                    if length == 0 { continue }
                    let code = next[length]
                    next[length] = code + 1
                    let reversed = reverseBits(code, length)
                    if length <= mainBits && alphabet == .literalLength
                        && foldedExtraBits(symbol, length: length, mainBits: mainBits) > 0 {
                        writeFolded(symbol, reversed: reversed, length: length, mainBits: mainBits, into: table)
                        continue
                    }
                    if length <= mainBits {
                        let entry = makeEntry(symbol, length: length, alphabet)
                        // A while loop, not stride(from:to:by:): the table builds of a PNG's many blocks showed
                        // the iterator's overhead (callgrind).
                        var index = reversed
                        while index < mainSize {
                            table[index] = entry
                            index &+= 1 &<< length
                        }
                        continue
                    }
                    let prefix = reversed & (mainSize - 1)
                    if table[prefix] & HuffmanEntry.kindMask != HuffmanEntry.link {
                        // capacity is the proven worst case (see layout), so this never overflows.
                        guard subOffset + (1 << subBits) <= capacity else { return }
                        table[prefix] = HuffmanEntry.make(length: mainBits, kind: HuffmanEntry.link,
                                                          extra: subBits, value: subOffset)
                        for index in subOffset..<(subOffset + (1 << subBits)) { table[index] = invalid }
                        subOffset += 1 << subBits
                    }
                    let start = Int(table[prefix] >> 16)
                    let subLength = length - mainBits
                    let entry = makeEntry(symbol, length: subLength, alphabet)
                    var index = reversed >> mainBits
                    while index < 1 << subBits {
                        table[start &+ index] = entry
                        index &+= 1 &<< subLength
                    }
                }
            }
        }
    }

    /// The extra bits of literal/length `symbol` if its entries are folded (a length with extra
    /// bits whose codeword of `length` bits and extra bits fit the main table), else 0.
    @inline(__always)
    static func foldedExtraBits(_ symbol: Int, length: Int, mainBits: Int) -> Int {
        let index = symbol &- 257
        guard index >= 0 && index < DeflateConstants.lengthExtraBits.count else { return 0 }
        let extra = Int(DeflateConstants.lengthExtraBits[index])
        return length &+ extra <= mainBits ? extra : 0
    }

    /// Writes the folded entries of length `symbol` (codeword `reversed`, `length` bits; see
    /// ``HuffmanEntry``): for each value x of its E extra bits, the length base + x at every index
    /// whose low L + E bits are the codeword followed by x.
    static func writeFolded(_ symbol: Int, reversed: Int, length: Int, mainBits: Int, into table: UnsafeMutablePointer<UInt32>) {
        let index = symbol &- 257
        let extra = Int(DeflateConstants.lengthExtraBits[index])
        let base = Int(DeflateConstants.lengthBase[index])
        let stride = 1 &<< (length &+ extra)
        for x in 0..<(1 &<< extra) {
            let entry = HuffmanEntry.makeFolded(length: length, extra: extra, value: base &+ x)
            var slot = reversed | x &<< length
            while slot < 1 &<< mainBits {
                table[slot] = entry
                slot &+= stride
            }
        }
    }

    /// Each symbol's entry for a codeword of no bits (``makeEntry(_:length:_:)`` with length 0):
    /// the entry for a codeword of L bits is its template plus `L << 8 | L` (the count field holds
    /// the extra bits, to which L adds; the codeword-length field is 0). One load per codeword
    /// where ``build(lengths:count:alphabet:into:)`` would branch on the kind and read two tables.
    private static let literalLengthTemplates: [UInt32] = (0..<288).map { makeEntry($0, length: 0, .literalLength) }
    private static let distanceTemplates: [UInt32] = (0..<32).map { makeEntry($0, length: 0, .distance) }
    private static let codeLengthTemplates: [UInt32] = (0..<19).map { makeEntry($0, length: 0, .codeLength) }

    @inline(__always)
    private static func templates(_ alphabet: HuffmanAlphabet) -> [UInt32] {
        switch alphabet {
        case .literalLength: return literalLengthTemplates
        case .distance: return distanceTemplates
        case .codeLength: return codeLengthTemplates
        }
    }

    private static func makeEntry(_ symbol: Int, length: Int, _ alphabet: HuffmanAlphabet) -> UInt32 {
        switch alphabet {
        case .codeLength:
            // Kind `base` with no extra bits: `entry >> 16` is the symbol (the reader handles 16–18).
            return HuffmanEntry.make(length: length, kind: HuffmanEntry.base, extra: 0, value: symbol)
        case .literalLength:
            if symbol < 256 { return HuffmanEntry.make(length: length, kind: HuffmanEntry.literal, extra: 0, value: symbol) }
            if symbol == 256 { return HuffmanEntry.make(length: length, kind: HuffmanEntry.endOfBlock, extra: 0, value: 0) }
            let index = symbol - 257
            guard index < DeflateConstants.lengthBase.count else {
                return HuffmanEntry.make(length: length, kind: HuffmanEntry.invalid, extra: 0, value: symbol)
            }
            return HuffmanEntry.make(length: length, kind: HuffmanEntry.base,
                                     extra: Int(DeflateConstants.lengthExtraBits[index]),
                                     value: Int(DeflateConstants.lengthBase[index]))
        case .distance:
            guard symbol < DeflateConstants.distanceBase.count else {
                return HuffmanEntry.make(length: length, kind: HuffmanEntry.invalid, extra: 0, value: symbol)
            }
            return HuffmanEntry.make(length: length, kind: HuffmanEntry.base,
                                     extra: Int(DeflateConstants.distanceExtraBits[symbol]),
                                     value: Int(DeflateConstants.distanceBase[symbol]))
        }
    }

    /// The codeword of `symbol` in the canonical code with the given lengths (RFC 1951 3.2.2), bit
    /// reversed as it arrives (first bit lowest), and its length; length 0 when the symbol has
    /// no codeword. Requires lengths ≤ 15 and `symbol < count`.
    static func codeword(of symbol: Int, lengths: UnsafePointer<UInt8>, count: Int) -> (reversed: UInt64, length: Int) {
        let length = Int(lengths[symbol] & 15)
        guard length > 0 else { return (0, 0) }
        // Codes are assigned shortest first, then in symbol order within a length: the symbol's
        // code is the count of shorter codewords, each length's widened to the next, plus its rank.
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: 16) { counts in
            counts.initialize(repeating: 0)
            var rank = 0
            for index in 0..<count {
                let bits = Int(lengths[index] & 15)
                counts[bits] &+= 1
                if bits == length && index < symbol { rank &+= 1 }
            }
            var code = 0
            for bits in 1..<length { code = (code &+ counts[bits]) &<< 1 }
            return (UInt64(reverseBits(code &+ rank, length)), length)
        }
    }

    /// The low `length` (≤ 16) bits of `code` in reverse order: swap halves, bytes, nibbles, pairs
    /// and bits of a 16-bit value, then drop the `16 - length` low bits that were zeros above the code.
    static func reverseBits(_ code: Int, _ length: Int) -> Int {
        var v = UInt32(truncatingIfNeeded: code) & 0xFFFF
        v = (v >> 8) | ((v & 0x00FF) << 8)
        v = ((v >> 4) & 0x0F0F) | ((v & 0x0F0F) << 4)
        v = ((v >> 2) & 0x3333) | ((v & 0x3333) << 2)
        v = ((v >> 1) & 0x5555) | ((v & 0x5555) << 1)
        return Int(v >> UInt32(16 - length))
    }
}
