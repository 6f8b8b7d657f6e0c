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
            // A local copy: the inout `index` would be stored back on every pixel.
            var next = index
            defer { index = next }
            var x = next % width
            var y = next / width
            // The current group's tables, located once per group change.
            var green = entries, red = entries, blue = entries, alpha = entries
            var distance = VP8LPrefixCode(start: 0, singleSymbol: nil)
            @inline(__always) func selectGroup() {
                let groupBase = codes.group(x: x, y: y) * 5
                green = entries + codes.codes[groupBase].start; red = entries + codes.codes[groupBase + 1].start
                blue = entries + codes.codes[groupBase + 2].start; alpha = entries + codes.codes[groupBase + 3].start
                distance = codes.codes[groupBase + 4]
            }
            if next < total { selectGroup() }
            @inline(__always) func insert(_ pixel: UInt32) {
                if hasCache { cache[Int((pixel &* cacheHashMultiplier) &>> cacheShift)] = pixel }
            }
            while next < total {
                if stopEarly, reader.availableBits < worstCaseSymbolBits { return .suspended }
                if groupMask >= 0, x & groupMask == 0 { selectGroup() }
                // A stretch of pixels that needs none of the per-pixel checks above: it ends at the
                // row's end or the group block's, and while more input may come, it is no longer
                // than the buffered bits surely cover (each pixel reads at most 60).
                var stretch = width &- x
                if groupMask >= 0 { stretch = min(stretch, groupMask &+ 1 &- (x & groupMask)) }
                if stopEarly {
                    stretch = min(stretch, (reader.availableBits &- worstCaseSymbolBits) / worstCaseSymbolBits &+ 1)
                }
                let stretchStart = next, stretchEnd = next &+ stretch
                // The green symbol of a backward reference met inside the stretch (it ends it).
                var lengthSymbol = -1
                while next < stretchEnd {
                    // Two codes of at most 15 bits after each refill (which leaves at least 57 bits
                    // unless the window is exhausted, where settleOverrun reports the overrun).
                    if reader.count < 2 &* VP8LPrefixCode.maxLength { reader.refill() }
                    let g = reader.readSymbolUnchecked(table: green)
                    if g < literalCount {
                        let r = reader.readSymbolUnchecked(table: red)
                        if reader.count < 2 &* VP8LPrefixCode.maxLength { reader.refill() }
                        let b = reader.readSymbolUnchecked(table: blue)
                        let a = reader.readSymbolUnchecked(table: alpha)
                        let pixel = UInt32(truncatingIfNeeded: a) &<< 24 | UInt32(truncatingIfNeeded: r) &<< 16
                            | UInt32(truncatingIfNeeded: g) &<< 8 | UInt32(truncatingIfNeeded: b)
                        out[next] = pixel
                        insert(pixel)
                    } else if g >= literalCount + lengthPrefixCount {
                        let key = g &- literalCount &- lengthPrefixCount
                        guard hasCache, key < cache.count else {
                            return .invalid("VP8L colour cache next \(key) without a cache that large")
                        }
                        let pixel = cache[key]
                        out[next] = pixel
                        insert(pixel)
                    } else {
                        lengthSymbol = g
                        break
                    }
                    next &+= 1
                    if reader.settleOverrun() { return .overran }
                }
                x &+= next &- stretchStart
                if x == width { x = 0; y &+= 1 }
                guard lengthSymbol >= 0 else { continue }
                var length = 0, back = 0
                if let failure = readBackwardReference(lengthSymbol: lengthSymbol, &reader, distance: distance, entries: entries,
                                                       width: width, next: next, total: total, length: &length, back: &back) {
                    return failure
                }
                copy(out, to: next, back: back, length: length, cache: hasCache ? cache : nil, cacheShift: cacheShift)
                next += length
                x += length
                if x >= width { y += x / width; x %= width }
                // A copy that ends the image leaves (x, y) one row below it: no group there.
                if groupMask >= 0, next < total { selectGroup() }
            }
            return .complete
        }
    }

    /// The LZ77 copy of `length` pixels from `back` pixels earlier (`back <= start`), forward
    /// element by element so overlapping copies repeat the pattern, each pixel inserted into
    /// `cache`. A run (`back` 1) repeats the pixel before it, which was the last insertion, so
    /// its slot already holds it: a plain fill.
    @inline(__always)
    static func copy(_ out: UnsafeMutablePointer<UInt32>, to start: Int, back: Int, length: Int,
                     cache: UnsafeMutableBufferPointer<UInt32>?, cacheShift: UInt32) {
        let end = start &+ length
        var k = start
        if back == 1 {
            let pixel = out[start &- 1]
            while k < end { out[k] = pixel; k &+= 1 }
            return
        }
        guard let cache else {
            while k < end { out[k] = out[k &- back]; k &+= 1 }
            return
        }
        while k < end {
            let pixel = out[k &- back]
            out[k] = pixel
            cache[Int((pixel &* cacheHashMultiplier) &>> cacheShift)] = pixel
            k &+= 1
        }
    }

    /// The length and distance of a backward reference whose length symbol (a green symbol of
    /// 256…279) was just read, checked against the pixels decoded so far (`next`) and the image
    /// end (`total`), in `length` and `back`; or the outcome that ends the pixel loop.
    @inline(always)
    static func readBackwardReference(lengthSymbol: Int, _ reader: inout VP8LBitReader, distance: VP8LPrefixCode,
                                      entries: UnsafePointer<UInt32>, width: Int, next: Int, total: Int,
                                      length: inout Int, back: inout Int) -> Outcome? {
        length = prefixCodedValue(lengthSymbol - literalCount, &reader)
        let distanceSymbol = reader.readSymbol(distance, entries)
        let distanceCode = prefixCodedValue(distanceSymbol, &reader)
        back = VP8LDistanceMap.distance(code: distanceCode, width: width)
        if reader.overran { return .overran }
        guard back <= next else {
            return .invalid("VP8L backward reference reaches \(back) pixels back from pixel \(next)")
        }
        guard length <= total - next else {
            return .invalid("VP8L backward reference of \(length) pixels runs past the image end at pixel \(next)")
        }
        return nil
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
