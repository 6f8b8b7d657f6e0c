/// LZ77 for a ``Deflater``: finds earlier occurrences of the upcoming bytes with hash chains
/// over 3-byte prefixes (RFC 1951 4) and turns the input into literal and match tokens.
///
/// `head[h]` is the latest position whose 3 bytes hash to `h`; `previous[p & windowMask]` is the
/// position before `p` with the same hash, so following the links walks every earlier candidate,
/// newest first. Positions are stored as `Int32` relative to `base` (`Int32.min`: none) and the
/// tables are rebased every gigabyte, so inputs of any length work. Example: after inserting
/// positions 0 and 5 of "abcXYabc", `head[hash("abc")] == 5` and `previous[5] == 0`.
final class DeflaterMatchFinder {
    /// Bits of the hash: 2^15 chains, as many as the window has positions.
    private static let hashBits = 15
    private static let hashSize = 1 << hashBits
    private static let windowMask = DeflaterSymbols.maxDistance - 1
    /// No position.
    private static let none = Int32.min
    /// A 3-byte match this far back costs more bits than three literals (about 3 · 8 bits
    /// versus a length code plus a distance code with 11+ extra bits); zlib's TOO_FAR.
    private static let tooFarForLength3 = 4096
    /// Rebase stored positions once they are this far beyond `base` (well inside Int32).
    private static let rebaseDistance = 1 << 30

    private let head: UnsafeMutablePointer<Int32>
    private let previous: UnsafeMutablePointer<Int32>
    private var base = 0
    private let parameters: DeflaterLevelParameters
    /// Bytes hashed per position: 3, or 6 when only matches of 6 or more are wanted (chains then
    /// hold only positions that share those 6 bytes: far shorter on PNG-filtered data, and no
    /// match of 6 or more is missed).
    private let hashLength: Int

    init(parameters: DeflaterLevelParameters) {
        self.parameters = parameters
        hashLength = parameters.shortestMatch >= 6 ? 6 : 3
        head = .allocate(capacity: DeflaterMatchFinder.hashSize)
        head.initialize(repeating: DeflaterMatchFinder.none, count: DeflaterMatchFinder.hashSize)
        previous = .allocate(capacity: DeflaterSymbols.maxDistance)
        previous.initialize(repeating: DeflaterMatchFinder.none, count: DeflaterSymbols.maxDistance)
    }

    deinit {
        head.deallocate()
        previous.deallocate()
    }

    /// Forgets every position, for input that starts over (``StreamingDeflater``'s next band).
    func reset() {
        head.update(repeating: DeflaterMatchFinder.none, count: DeflaterMatchFinder.hashSize)
        previous.update(repeating: DeflaterMatchFinder.none, count: DeflaterSymbols.maxDistance)
        base = 0
    }

    /// Tokenises `input[start...]`, calling `flush(end, false)` whenever `tokens` is full and
    /// `flush(input.count, true)` once at the end, `end` being the input position the tokens so
    /// far reach; `flush` must empty `tokens`. `input[..<start]` is history (its last 32 KiB are
    /// hashed first) that matches may refer to but that is not tokenised.
    func tokenize(_ input: UnsafeBufferPointer<UInt8>, from start: Int = 0, into tokens: DeflaterTokenBuffer,
                  flush: (Int, Bool) -> Void) {
        if let data = input.baseAddress, input.count > 0 {
            let first = max(0, min(start, input.count))
            insertRange(data, input.count, from: max(0, first - DeflaterSymbols.maxDistance), to: first)
            if parameters.lazy {
                tokenizeLazily(data, input.count, from: first, tokens, flush)
            } else {
                tokenizeGreedily(data, input.count, from: first, tokens, flush)
            }
        }
        flush(input.count, true)
    }

    // MARK: - Parsing strategies

    /// Levels 1–3: take the longest match found at each position.
    private func tokenizeGreedily(_ data: UnsafePointer<UInt8>, _ n: Int, from start: Int, _ tokens: DeflaterTokenBuffer,
                                  _ flush: (Int, Bool) -> Void) {
        var p = start
        while p < n {
            var length = 0, distance = 0
            if p + hashLength <= n {
                let candidate = insert(data, p)
                (length, distance) = longestMatch(data, n, p, candidate, chain: parameters.maxChain,
                                                  longerThan: parameters.shortestMatch - 1)
            }
            if length >= DeflaterSymbols.minMatch {
                tokens.appendMatch(length: length, distance: distance)
                // Positions inside long matches are skipped: cheaper, and such data is
                // repetitive enough that the chains still find it.
                if length <= parameters.maxLazy {
                    insertRange(data, n, from: p + 1, to: p + length)
                }
                p += length
            } else {
                tokens.appendLiteral(data[p])
                p += 1
            }
            if tokens.isFull {
                flush(p, false)
                rebaseIfNeeded(p)
            }
        }
    }

    /// Levels 4–9: lazy matching. A match found at `p − 1` is held back one position; if `p`
    /// starts a longer match, `p − 1` becomes a literal and the longer match is held instead.
    private func tokenizeLazily(_ data: UnsafePointer<UInt8>, _ n: Int, from start: Int, _ tokens: DeflaterTokenBuffer,
                                _ flush: (Int, Bool) -> Void) {
        var p = start
        var heldLength = 0, heldDistance = 0   // the match at p − 1, if heldLength ≥ 3
        var holdingLiteral = false              // whether p − 1 is not yet emitted
        while p < n {
            var length = 0, distance = 0
            if p + hashLength <= n {
                let candidate = insert(data, p)
                if heldLength < parameters.maxLazy {
                    let chain = heldLength >= parameters.goodLength ? parameters.maxChain >> 2 : parameters.maxChain
                    (length, distance) = longestMatch(data, n, p, candidate, chain: chain,
                                                      longerThan: max(heldLength, parameters.shortestMatch - 1))
                    if length == DeflaterSymbols.minMatch && distance > DeflaterMatchFinder.tooFarForLength3 { length = 0 }
                }
            }
            if heldLength >= DeflaterSymbols.minMatch && length <= heldLength {
                tokens.appendMatch(length: heldLength, distance: heldDistance)
                let end = p - 1 + heldLength
                insertRange(data, n, from: p + 1, to: end)
                p = end
                holdingLiteral = false
                heldLength = 0
                if tokens.isFull {
                    flush(p, false)
                    rebaseIfNeeded(p)
                }
            } else {
                if holdingLiteral {
                    tokens.appendLiteral(data[p - 1])
                    if tokens.isFull {
                        flush(p, false)
                        rebaseIfNeeded(p)
                    }
                }
                holdingLiteral = true
                heldLength = length
                heldDistance = distance
                p += 1
            }
        }
        if holdingLiteral {
            tokens.appendLiteral(data[n - 1])
            if tokens.isFull { flush(n, false) }
        }
    }

    // MARK: - Hash chains

    /// Hash of the `hashLength` bytes at `p` (needs p + hashLength ≤ n): multiplicative hashing
    /// (Knuth), top bits.
    @inline(__always)
    private func hash(_ data: UnsafePointer<UInt8>, _ p: Int) -> Int {
        if hashLength == 6 {
            let v = UInt64(UnsafeRawPointer(data + p).loadUnaligned(as: UInt32.self).littleEndian)
                | UInt64(UnsafeRawPointer(data + p + 4).loadUnaligned(as: UInt16.self).littleEndian) &<< 32
            return Int(truncatingIfNeeded: (v &* 0x9E37_79B1_7F4A_7C15) &>> UInt64(64 - DeflaterMatchFinder.hashBits))
        }
        let v = UInt32(data[p]) | UInt32(data[p &+ 1]) << 8 | UInt32(data[p &+ 2]) << 16
        return Int((v &* 0x9E37_79B1) >> UInt32(32 - DeflaterMatchFinder.hashBits))
    }

    /// Links position `p` (p + hashLength ≤ n) into its chain; returns the previous chain head
    /// (absolute; far negative if none).
    @inline(__always)
    private func insert(_ data: UnsafePointer<UInt8>, _ p: Int) -> Int {
        let h = hash(data, p)
        let old = head[h]
        previous[p & DeflaterMatchFinder.windowMask] = old
        head[h] = Int32(truncatingIfNeeded: p &- base)
        return Int(old) &+ base
    }

    /// Inserts positions `from..<to` that have `hashLength` bytes available.
    @inline(__always)
    private func insertRange(_ data: UnsafePointer<UInt8>, _ n: Int, from: Int, to: Int) {
        var q = from
        let last = min(to, n - hashLength + 1)
        while q < last {
            _ = insert(data, q)
            q += 1
        }
    }

    /// Keeps stored positions small: subtracts a large multiple from every entry, forgetting
    /// those outside the window.
    private func rebaseIfNeeded(_ p: Int) {
        guard p - base >= DeflaterMatchFinder.rebaseDistance else { return }
        let delta = p - base - 2 * DeflaterSymbols.maxDistance
        func shift(_ table: UnsafeMutablePointer<Int32>, _ count: Int) {
            for i in 0..<count {
                let entry = Int(table[i])
                table[i] = entry < delta ? DeflaterMatchFinder.none : Int32(entry - delta)
            }
        }
        shift(head, DeflaterMatchFinder.hashSize)
        shift(previous, DeflaterSymbols.maxDistance)
        base += delta
    }

    /// The longest match for position `p` longer than `longerThan`, following the chain from
    /// `candidate` at most `chain` links; (0, 0) if none.
    ///
    /// Candidates must lie strictly less than 32768 bytes back: the link of the position exactly
    /// 32768 back shares its slot with `p` and was just overwritten.
    @inline(__always)
    private func longestMatch(_ data: UnsafePointer<UInt8>, _ n: Int, _ p: Int, _ candidate: Int,
                              chain: Int, longerThan: Int) -> (length: Int, distance: Int) {
        let maxLength = min(DeflaterSymbols.maxMatch, n - p)
        var bestLength = longerThan
        guard bestLength < maxLength else { return (0, 0) }
        let nice = min(parameters.niceLength, maxLength)
        let limit = p - DeflaterSymbols.maxDistance
        var bestDistance = 0
        var current = candidate
        var remaining = chain
        let target = data + p
        let targetStart = UnsafeRawPointer(target).loadUnaligned(as: UInt16.self)
        // The two bytes ending a longer match: bestLength ≥ 2 and bestLength < maxLength ≤ n − p,
        // so bytes bestLength − 1 and bestLength exist at both positions.
        var targetEnd = UnsafeRawPointer(target + bestLength - 1).loadUnaligned(as: UInt16.self)
        while current > limit && remaining > 0 {
            let source = data + current
            // Cheap rejections first: the two bytes that would end a longer match, then the start.
            if UnsafeRawPointer(source + bestLength - 1).loadUnaligned(as: UInt16.self) == targetEnd
                && UnsafeRawPointer(source).loadUnaligned(as: UInt16.self) == targetStart {
                let length = DeflaterMatchFinder.matchLength(source, target, maxLength)
                if length > bestLength {
                    bestLength = length
                    bestDistance = p - current
                    if length >= nice { break }
                    targetEnd = UnsafeRawPointer(target + bestLength - 1).loadUnaligned(as: UInt16.self)
                }
            }
            let next = Int(previous[current & DeflaterMatchFinder.windowMask]) &+ base
            guard next < current else { break }
            current = next
            remaining -= 1
        }
        return bestDistance > 0 ? (bestLength, bestDistance) : (0, 0)
    }

    /// How many bytes (≤ maxLength) agree at `a` and `b`; both have `maxLength` readable bytes.
    /// Compares 8 bytes per step: the first differing byte is the lowest non-zero byte of the
    /// XOR of two little-endian words.
    @inline(__always)
    static func matchLength(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ maxLength: Int) -> Int {
        var length = 0
        while length + 8 <= maxLength {
            let x = UnsafeRawPointer(a + length).loadUnaligned(as: UInt64.self)
            let y = UnsafeRawPointer(b + length).loadUnaligned(as: UInt64.self)
            let difference = UInt64(littleEndian: x ^ y)
            if difference != 0 { return length + difference.trailingZeroBitCount / 8 }
            length += 8
        }
        while length < maxLength && a[length] == b[length] { length += 1 }
        return length
    }
}
