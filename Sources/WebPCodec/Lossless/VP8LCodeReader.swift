/// Reads the prefix codes and sub-images that precede VP8L pixel data (RFC 9649 sections 3.7.2
/// and 4–6): colour cache size, the entropy image, the groups of five prefix codes.
///
/// Reading is all-or-nothing: a structure whose bits are not all in the window throws
/// ``VP8LFailure/needMoreData`` and the caller retries from the start once more input arrived.
struct VP8LCodeReader {
    /// The reader, positioned after what was read so far.
    var reader: VP8LBitReader
    /// Bounds on table memory.
    let maxTableEntries: Int
    /// Table entries built so far (every code of every image of this stream).
    private(set) var tableEntriesBuilt = 0

    /// Alphabet sizes of the five codes of a group (RFC 9649 section 5.2): green + 24 length
    /// prefixes (+ cache size), red, blue, alpha, 40 distance prefixes.
    static let alphabetSizes = [256 + 24, 256, 256, 256, 40]
    /// Order in which code-length code lengths are stored (RFC 9649 section 3.7.2.1.2).
    static let codeLengthOrder = [17, 18, 0, 1, 2, 3, 4, 5, 16, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]
    /// Largest colour cache exponent (section 5.2.3: 1–11).
    static let maxCacheBits = 11

    init(reader: VP8LBitReader, maxTableEntries: Int) {
        self.reader = reader
        self.maxTableEntries = maxTableEntries
    }

    /// An error, unless the bits ran out first (then the "error" is an artefact of zero padding).
    func failure(_ message: String) -> VP8LFailure {
        reader.overran ? .needMoreData : .invalid(message)
    }

    /// Throws ``VP8LFailure/needMoreData`` if a read went past the window.
    func checkInput() throws(VP8LFailure) {
        if reader.overran { throw .needMoreData }
    }

    /// Section 5.2.3: the colour cache flag and exponent.
    mutating func readCacheBits() throws(VP8LFailure) -> Int {
        guard reader.read(1) == 1 else { return 0 }
        let bits = Int(reader.read(4))
        guard bits >= 1, bits <= Self.maxCacheBits else { throw failure("VP8L colour cache size exponent \(bits) is outside 1–11") }
        return bits
    }

    /// An entropy-coded image without transforms or meta codes (a transform's data or the
    /// entropy image, RFC 9649 section 5.1 "sub-images"), `width × height` ARGB pixels.
    mutating func readSubImage(width: Int, height: Int) throws(VP8LFailure) -> [UInt32] {
        let cacheBits = try readCacheBits()
        let codes = try readCodes(groupCount: 1, cacheBits: cacheBits, groupBits: 0, groupsPerRow: 0, groupOfBlock: [])
        try checkInput()
        var pixels = [UInt32](repeating: 0, count: width * height)
        var cache = [UInt32](repeating: 0, count: cacheBits > 0 ? 1 << cacheBits : 0)
        var index = 0
        let outcome = pixels.withUnsafeMutableBufferPointer { out in
            cache.withUnsafeMutableBufferPointer { cacheBuffer in
                VP8LPixelDecoder.decode(reader: &reader, codes: codes, width: width, pixels: out, index: &index,
                                        cache: cacheBuffer, stopEarly: false)
            }
        }
        switch outcome {
        case .complete: return pixels
        case .suspended, .overran: throw .needMoreData
        case .invalid(let message): throw failure(message)
        }
    }

    /// The main image's codes (section 6.2.2): cache exponent, optional entropy image, groups.
    mutating func readMainCodes(width: Int, height: Int) throws(VP8LFailure) -> VP8LEntropyCodes {
        let cacheBits = try readCacheBits()
        guard reader.read(1) == 1 else {
            return try readCodes(groupCount: 1, cacheBits: cacheBits, groupBits: 0, groupsPerRow: 0, groupOfBlock: [])
        }
        let groupBits = Int(reader.read(3)) + 2
        let groupsPerRow = subsampledSize(width, groupBits)
        let groupRows = subsampledSize(height, groupBits)
        let entropyImage = try readSubImage(width: groupsPerRow, height: groupRows)
        // The group of a block is the red and green bytes (section 6.2.2). Only groups that some
        // block uses are kept; the others are still read (and must be valid, as libwebp checks).
        var declaredGroups = 0
        for pixel in entropyImage { declaredGroups = max(declaredGroups, Int(pixel >> 8 & 0xFFFF) + 1) }
        // Kept groups are numbered in declared order, the order they are read in.
        var keptIndex = [Int32](repeating: -1, count: declaredGroups)
        for pixel in entropyImage { keptIndex[Int(pixel >> 8 & 0xFFFF)] = 0 }
        var kept: Int32 = 0
        for declared in 0..<declaredGroups where keptIndex[declared] == 0 {
            keptIndex[declared] = kept
            kept += 1
        }
        let groupOfBlock = entropyImage.map { UInt32(keptIndex[Int($0 >> 8 & 0xFFFF)]) }
        return try readCodes(groupCount: declaredGroups, cacheBits: cacheBits, groupBits: groupBits,
                             groupsPerRow: groupsPerRow, groupOfBlock: groupOfBlock, keptIndex: keptIndex)
    }

    /// `groupCount` groups of five codes; groups whose `keptIndex` is negative are read and dropped.
    private mutating func readCodes(groupCount: Int, cacheBits: Int, groupBits: Int, groupsPerRow: Int,
                                    groupOfBlock: [UInt32], keptIndex: [Int32]? = nil) throws(VP8LFailure) -> VP8LEntropyCodes {
        var entries: [UInt32] = []
        var codes: [VP8LPrefixCode] = []
        var scratch: [UInt32] = []
        for group in 0..<groupCount {
            let keep = keptIndex.map { $0[group] >= 0 } ?? true
            for k in 0..<5 {
                var alphabet = Self.alphabetSizes[k]
                if k == 0, cacheBits > 0 { alphabet += 1 << cacheBits }
                if keep {
                    codes.append(try readCode(alphabetSize: alphabet, into: &entries))
                } else {
                    scratch.removeAll(keepingCapacity: true)
                    _ = try readCode(alphabetSize: alphabet, into: &scratch)
                }
            }
            try checkInput()
        }
        return VP8LEntropyCodes(codes: codes, entries: entries, groupBits: groupBits, groupsPerRow: groupsPerRow,
                                groupOfBlock: groupOfBlock, cacheBits: cacheBits)
    }

    /// One prefix code (section 3.7.2.1): simple (one or two symbols) or normal (code lengths
    /// coded with a code-length code).
    mutating func readCode(alphabetSize: Int, into entries: inout [UInt32]) throws(VP8LFailure) -> VP8LPrefixCode {
        var lengths = [UInt8](repeating: 0, count: alphabetSize)
        if reader.read(1) == 1 {
            // Simple code: 1 or 2 symbols; the first takes 1 or 8 bits, the second 8.
            let symbolCount = Int(reader.read(1)) + 1
            let firstBits = reader.read(1) == 0 ? 1 : 8
            let first = Int(reader.read(firstBits))
            if first < alphabetSize { lengths[first] = 1 }
            if symbolCount == 2 {
                let second = Int(reader.read(8))
                if second < alphabetSize { lengths[second] = 1 }
            }
        } else {
            try readCodeLengths(into: &lengths)
        }
        try checkInput()
        let before = entries.count
        let built = lengths.withUnsafeBufferPointer { VP8LPrefixCode.build(lengths: $0, into: &entries) }
        guard let code = built else { throw failure("VP8L prefix code lengths do not form a complete code") }
        tableEntriesBuilt += entries.count - before
        guard tableEntriesBuilt <= maxTableEntries else {
            throw .limitExceeded("VP8L prefix tables need more than \(maxTableEntries) entries")
        }
        return code
    }

    /// Normal code lengths (section 3.7.2.1.2).
    private mutating func readCodeLengths(into lengths: inout [UInt8]) throws(VP8LFailure) {
        let storedCount = Int(reader.read(4)) + 4
        var lengthCodeLengths = [UInt8](repeating: 0, count: Self.codeLengthOrder.count)
        for i in 0..<storedCount { lengthCodeLengths[Self.codeLengthOrder[i]] = UInt8(reader.read(3)) }
        try checkInput()
        var lengthTable: [UInt32] = []
        guard let lengthCode = lengthCodeLengths.withUnsafeBufferPointer({ VP8LPrefixCode.build(lengths: $0, into: &lengthTable) }) else {
            throw failure("VP8L code-length code is not a complete prefix code")
        }
        let symbolCount = lengths.count
        var maxSymbol = symbolCount
        if reader.read(1) == 1 {
            let lengthBits = 2 + 2 * Int(reader.read(3))
            maxSymbol = 2 + Int(reader.read(lengthBits))
            guard maxSymbol <= symbolCount else {
                throw failure("VP8L max_symbol \(maxSymbol) exceeds the alphabet size \(symbolCount)")
            }
        }
        var previous: UInt8 = 8
        var symbol = 0
        try lengthTable.withUnsafeBufferPointer { table throws(VP8LFailure) in
            guard let entries = table.baseAddress else { return }
            while symbol < symbolCount {
                if maxSymbol == 0 { break }
                maxSymbol -= 1
                let code = reader.readSymbol(lengthCode, entries)
                if reader.overran { throw .needMoreData }
                if code < 16 {
                    lengths[symbol] = UInt8(code)
                    symbol += 1
                    if code != 0 { previous = UInt8(code) }
                } else {
                    let extraBits = [2, 3, 7][code - 16]
                    let base = [3, 3, 11][code - 16]
                    let repeatCount = Int(reader.read(extraBits)) + base
                    guard symbol + repeatCount <= symbolCount else {
                        throw failure("VP8L code length repeat of \(repeatCount) runs past the alphabet of \(symbolCount)")
                    }
                    let value: UInt8 = code == 16 ? previous : 0
                    for k in symbol..<(symbol + repeatCount) { lengths[k] = value }
                    symbol += repeatCount
                }
            }
        }
    }
}

/// `ceil(size / 2^bits)`: blocks of `2^bits` pixels covering `size` pixels (libwebp's VP8LSubSampleSize).
@inline(__always)
func subsampledSize(_ size: Int, _ bits: Int) -> Int { (size + (1 << bits) - 1) >> bits }
