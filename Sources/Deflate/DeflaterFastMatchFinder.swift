/// Level 1's LZ77: one hash-table probe per position and greedy matches (the approach of
/// LZ4-style "fast" compressors), several times faster than hash chains for a few percent
/// more output.
///
/// `table[h]` holds the latest position whose first `hashLength` bytes hash to `h`; a position
/// whose candidate lies within the window and agrees on the first `hashLength` bytes starts a
/// match, extended 8 bytes at a time. Positions inside a match are not inserted. Example: in
/// "abcdefgh_abcdefgh" with 4-byte hashing, position 9 finds position 0 and emits one match
/// of length 8 at distance 9.
final class DeflaterFastMatchFinder {
    private static let hashBits = 15
    private static let hashSize = 1 << hashBits
    /// An entry far enough back that no position is within the window of it.
    private static let empty = Int.min / 2
    /// Failed probes in a row after which every other position is skipped.
    private static let missesBeforeSkipping = 64

    private let table: UnsafeMutablePointer<Int>
    /// Bytes that must agree for a match, hashed together: 4, or 6 for ``DeflateStrategy/filtered``.
    private let hashLength: Int
    /// The low `hashLength` bytes of a 64-bit little-endian load.
    private let mask: UInt64

    init(strategy: DeflateStrategy) {
        hashLength = strategy == .filtered ? 6 : 4
        mask = strategy == .filtered ? 0xFFFF_FFFF_FFFF : 0xFFFF_FFFF
        table = .allocate(capacity: DeflaterFastMatchFinder.hashSize)
        table.initialize(repeating: DeflaterFastMatchFinder.empty, count: DeflaterFastMatchFinder.hashSize)
    }

    deinit { table.deallocate() }

    /// Makes `p` (whose first bytes are `word`) the latest position of its hash; returns the previous one.
    @inline(__always) @discardableResult
    private func insert(_ word: UInt64, _ p: Int) -> Int {
        let h = Int(truncatingIfNeeded: (word &* 0x9E37_79B1_7F4A_7C15) >> UInt64(64 - DeflaterFastMatchFinder.hashBits))
        let previous = table[h]
        table[h] = p
        return previous
    }

    /// Forgets every position, for input that starts over (``StreamingDeflater``'s next band).
    func reset() {
        table.update(repeating: DeflaterFastMatchFinder.empty, count: DeflaterFastMatchFinder.hashSize)
    }

    /// Tokenises `input[start...]`, with the same `flush` contract as
    /// ``DeflaterMatchFinder/tokenize(_:from:into:flush:)``; `input[..<start]` is history that
    /// matches may refer to.
    func tokenize(_ input: UnsafeBufferPointer<UInt8>, from start: Int = 0, into tokens: DeflaterTokenBuffer,
                  flush: (Int, Bool) -> Void) {
        guard let data = input.baseAddress else {
            flush(0, true)
            return
        }
        let n = input.count
        // Positions with 8 bytes left can be loaded as one word; the rest are literals.
        let searchEnd = n - 8
        var p = max(0, min(start, n))
        for q in max(0, p - DeflaterSymbols.maxDistance)..<max(0, min(p, searchEnd)) {
            insert(UnsafeRawPointer(data + q).loadUnaligned(as: UInt64.self).littleEndian & mask, q)
        }
        var misses = 0
        while p < searchEnd {
            let word = UnsafeRawPointer(data + p).loadUnaligned(as: UInt64.self).littleEndian & mask
            let candidate = insert(word, p)
            let distance = p &- candidate
            if distance <= DeflaterSymbols.maxDistance
                && UnsafeRawPointer(data + candidate).loadUnaligned(as: UInt64.self).littleEndian & mask == word {
                let limit = min(DeflaterSymbols.maxMatch, n - p)
                let length = hashLength + DeflaterMatchFinder.matchLength(data + candidate + hashLength, data + p + hashLength, limit - hashLength)
                tokens.appendMatch(length: length, distance: distance)
                // Remember the match's last positions too: what follows often repeats there
                // (the next row of a flat area, the rest of a pattern).
                var q = max(p + 1, p + length - 2)
                while q < min(p + length, searchEnd) {
                    insert(UnsafeRawPointer(data + q).loadUnaligned(as: UInt64.self).littleEndian & mask, q)
                    q += 1
                }
                p += length
                misses = 0
            } else {
                tokens.appendLiteral(data[p])
                p += 1
                misses &+= 1
                // A long stretch without matches (photo noise): probe only every other position
                // until the next match, the skipped byte a literal (LZ4-style acceleration).
                if misses > DeflaterFastMatchFinder.missesBeforeSkipping && p < searchEnd && !tokens.isFull {
                    tokens.appendLiteral(data[p])
                    p += 1
                }
            }
            if tokens.isFull { flush(p, false) }
        }
        while p < n {
            tokens.appendLiteral(data[p])
            p += 1
            if tokens.isFull && p < n { flush(p, false) }
        }
        flush(n, true)
    }
}
