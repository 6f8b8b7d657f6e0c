/// The entropy-coded pixel loop of VP8L (RFC 9649 section 5.2): literals, LZ77 backward
/// references and colour cache hits, written into a whole-image ARGB buffer.
///
/// It can stop between two symbols (when fewer than ``worstCaseSymbolBits`` bits are left and
/// more input may come) and resume later at the same pixel: all its state is the pixel index,
/// the bit reader and the colour cache, which live in the caller.
enum VP8LPixelDecoder {
    /// Most bits one step of the loop can read: a literal is four codes of at most 15 bits
    /// (60); a backward reference is 15 + 10 extra length bits + 15 + 18 extra distance bits
    /// (58); a cache hit is 15.
    static let worstCaseSymbolBits = 60
    /// Literal green values (0–255) come first in the green alphabet, then 24 length prefixes.
    static let literalCount = 256
    static let lengthPrefixCount = 24
    /// Colour cache multiplier (RFC 9649 section 5.2.3).
    static let cacheHashMultiplier: UInt32 = 0x1E35_A7BD

    /// How a run ended.
    enum Outcome: Equatable {
        /// Every pixel is decoded.
        case complete
        /// Too few bits are left to be sure the next symbol is whole; call again with more input.
        case suspended
        /// A symbol needed bits beyond the input: the data ends too early.
        case overran
        /// The bitstream breaks the format.
        case invalid(String)
    }

    /// Decodes pixels `index ..< pixels.count` of an image `width` pixels wide.
    ///
    /// - Parameters:
    ///   - stopEarly: suspend before a symbol that might not be wholly in the window.
    ///   - cache: `1 << codes.cacheBits` entries, or empty without a cache.
    static func decode(reader: inout VP8LBitReader, codes: VP8LEntropyCodes, width: Int,
                       pixels: UnsafeMutableBufferPointer<UInt32>, index: inout Int,
                       cache: UnsafeMutableBufferPointer<UInt32>, stopEarly: Bool) -> Outcome {
        guard let out = pixels.baseAddress else { return .complete }
        let total = pixels.count
        let cacheShift = UInt32(32 - codes.cacheBits)
        let hasCache = codes.cacheBits > 0 && cache.count == 1 << codes.cacheBits
        let groupMask = codes.groupBits > 0 ? (1 << codes.groupBits) - 1 : -1
        return codes.entries.withUnsafeBufferPointer { entryBuffer -> Outcome in
            guard let entries = entryBuffer.baseAddress else { return .invalid("VP8L prefix codes are empty") }
            var x = index % width
            var y = index / width
            var groupBase = codes.group(x: x, y: y) * 5
            var green = codes.codes[groupBase], red = codes.codes[groupBase + 1]
            var blue = codes.codes[groupBase + 2], alpha = codes.codes[groupBase + 3]
            var distance = codes.codes[groupBase + 4]
            @inline(__always) func selectGroup() {
                groupBase = codes.group(x: x, y: y) * 5
                green = codes.codes[groupBase]; red = codes.codes[groupBase + 1]
                blue = codes.codes[groupBase + 2]; alpha = codes.codes[groupBase + 3]
                distance = codes.codes[groupBase + 4]
            }
            @inline(__always) func insert(_ pixel: UInt32) {
                if hasCache { cache[Int((pixel &* cacheHashMultiplier) >> cacheShift)] = pixel }
            }
            while index < total {
                if stopEarly, reader.availableBits < worstCaseSymbolBits { return .suspended }
                if groupMask >= 0, x & groupMask == 0 { selectGroup() }
                // Two codes of at most 15 bits after each refill (which leaves at least 57 bits
                // unless the window is nearly done, where skip's overrun check takes over).
                if reader.count < 2 &* VP8LPrefixCode.maxLength { reader.refill() }
                let g = reader.readSymbolPrefilled(green, entries)
                if g < literalCount {
                    let r = reader.readSymbolPrefilled(red, entries)
                    if reader.count < 2 &* VP8LPrefixCode.maxLength { reader.refill() }
                    let b = reader.readSymbolPrefilled(blue, entries)
                    let a = reader.readSymbolPrefilled(alpha, entries)
                    let pixel = UInt32(truncatingIfNeeded: a) &<< 24 | UInt32(truncatingIfNeeded: r) &<< 16
                        | UInt32(truncatingIfNeeded: g) &<< 8 | UInt32(truncatingIfNeeded: b)
                    out[index] = pixel
                    insert(pixel)
                    index &+= 1
                    x &+= 1
                    if x == width { x = 0; y &+= 1 }
                } else if g < literalCount + lengthPrefixCount {
                    let length = prefixCodedValue(g - literalCount, &reader)
                    let distanceSymbol = reader.readSymbol(distance, entries)
                    let distanceCode = prefixCodedValue(distanceSymbol, &reader)
                    let back = VP8LDistanceMap.distance(code: distanceCode, width: width)
                    if reader.overran { return .overran }
                    guard back <= index else {
                        return .invalid("VP8L backward reference reaches \(back) pixels back from pixel \(index)")
                    }
                    guard length <= total - index else {
                        return .invalid("VP8L backward reference of \(length) pixels runs past the image end at pixel \(index)")
                    }
                    // Forward element by element: overlapping copies repeat the pattern (LZ77).
                    for k in index..<(index + length) {
                        let pixel = out[k - back]
                        out[k] = pixel
                        insert(pixel)
                    }
                    index += length
                    x += length
                    if x >= width { y += x / width; x %= width }
                    // A copy that ends the image leaves (x, y) one row below it: no group there.
                    if groupMask >= 0, index < total { selectGroup() }
                } else {
                    let key = g - literalCount - lengthPrefixCount
                    guard hasCache, key < cache.count else {
                        return .invalid("VP8L colour cache index \(key) without a cache that large")
                    }
                    let pixel = cache[key]
                    out[index] = pixel
                    insert(pixel)
                    index += 1
                    x += 1
                    if x == width { x = 0; y += 1 }
                }
                if reader.overran { return .overran }
            }
            return .complete
        }
    }

    /// A length or distance from its prefix symbol and extra bits (RFC 9649 section 5.2.2).
    @inline(__always)
    static func prefixCodedValue(_ prefix: Int, _ reader: inout VP8LBitReader) -> Int {
        if prefix < 4 { return prefix + 1 }
        let extraBits = (prefix - 2) >> 1
        let offset = (2 + (prefix & 1)) << extraBits
        return offset + Int(reader.read(extraBits)) + 1
    }
}
