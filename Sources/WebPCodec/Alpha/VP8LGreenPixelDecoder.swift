/// The VP8L pixel loop (RFC 9649 section 5.2) for a stream without a colour cache that
/// ``VP8LGreenPlan`` accepts: only green matters, so a literal's red, blue and alpha codes are
/// read and dropped, each pixel is one byte, and backward references copy bytes.
///
/// Decodes a whole stream in one call (`ALPH` data is complete before it is decoded); its
/// results equal the green bytes of ``VP8LPixelDecoder``'s pixels, which tests check.
enum VP8LGreenPixelDecoder {
    /// Decodes every pixel of `plane`, an image `width` pixels wide, from `reader`.
    static func decode(reader: inout VP8LBitReader, codes: VP8LEntropyCodes, width: Int,
                       plane: UnsafeMutableBufferPointer<UInt8>) -> VP8LPixelDecoder.Outcome {
        guard let out = plane.baseAddress, width > 0 else { return .complete }
        let total = plane.count
        let groupMask = codes.groupBits > 0 ? (1 << codes.groupBits) - 1 : -1
        return codes.entries.withUnsafeBufferPointer { entryBuffer -> VP8LPixelDecoder.Outcome in
            guard let entries = entryBuffer.baseAddress else { return .invalid("VP8L prefix codes are empty") }
            var next = 0, x = 0, y = 0
            var green = entries, red = entries, blue = entries, alpha = entries
            var distance = VP8LPrefixCode(start: 0, singleSymbol: nil)
            @inline(__always) func selectGroup() {
                let groupBase = codes.group(x: x, y: y) * 5
                green = entries + codes.codes[groupBase].start; red = entries + codes.codes[groupBase + 1].start
                blue = entries + codes.codes[groupBase + 2].start; alpha = entries + codes.codes[groupBase + 3].start
                distance = codes.codes[groupBase + 4]
            }
            if total > 0 { selectGroup() }
            while next < total {
                if groupMask >= 0, x & groupMask == 0 { selectGroup() }
                // Literals up to the row's end or the group block's: no per-pixel group check.
                var stretch = width &- x
                if groupMask >= 0 { stretch = min(stretch, groupMask &+ 1 &- (x & groupMask)) }
                let stretchStart = next, stretchEnd = next &+ stretch
                var lengthSymbol = -1
                while next < stretchEnd {
                    // Two codes of at most 15 bits after each refill (see VP8LPixelDecoder).
                    if reader.count < 2 &* VP8LPrefixCode.maxLength { reader.refill() }
                    let g = reader.readSymbolUnchecked(table: green)
                    guard g < VP8LPixelDecoder.literalCount else {
                        if reader.settleOverrun() { return .overran }
                        lengthSymbol = g
                        break
                    }
                    _ = reader.readSymbolUnchecked(table: red)
                    if reader.count < 2 &* VP8LPrefixCode.maxLength { reader.refill() }
                    _ = reader.readSymbolUnchecked(table: blue)
                    _ = reader.readSymbolUnchecked(table: alpha)
                    if reader.settleOverrun() { return .overran }
                    out[next] = UInt8(truncatingIfNeeded: g)
                    next &+= 1
                }
                x &+= next &- stretchStart
                if x == width { x = 0; y &+= 1 }
                guard lengthSymbol >= 0 else { continue }
                guard lengthSymbol < VP8LPixelDecoder.literalCount + VP8LPixelDecoder.lengthPrefixCount else {
                    return .invalid("VP8L colour cache symbol \(lengthSymbol) without a colour cache")
                }
                var length = 0, back = 0
                if let failure = VP8LPixelDecoder.readBackwardReference(
                    lengthSymbol: lengthSymbol, &reader, distance: distance, entries: entries, width: width, next: next,
                    total: total, length: &length, back: &back) {
                    return failure
                }
                copy(out, to: next, back: back, length: length)
                next += length
                x += length
                if x >= width { y += x / width; x %= width }
                // A copy that ends the image leaves (x, y) one row below it: no group there.
                if groupMask >= 0, next < total { selectGroup() }
            }
            return .complete
        }
    }

    /// LZ77 copy of `length` bytes from `back` bytes earlier: overlapping copies repeat the
    /// pattern. Eight bytes at a time when the source lies at least eight bytes back.
    @inline(__always)
    static func copy(_ out: UnsafeMutablePointer<UInt8>, to start: Int, back: Int, length: Int) {
        var k = start
        let end = start &+ length
        if back >= 8 {
            while k &+ 8 <= end {
                let word = UnsafeRawPointer(out + (k &- back)).loadUnaligned(as: UInt64.self)
                UnsafeMutableRawPointer(out + k).storeBytes(of: word, as: UInt64.self)
                k &+= 8
            }
        } else if back == 1, length > 0 {
            (out + k).update(repeating: out[k &- 1], count: length)
            return
        }
        while k < end {
            out[k] = out[k &- back]
            k &+= 1
        }
    }
}
