/// Adler-32 as used by zlib (RFC 1950 8.2): two sums modulo 65521, `s1` (1 + the bytes) and
/// `s2` (the sum of the successive `s1` values); the value is `s2 << 16 | s1`.
public struct Adler32: Sendable {
    /// The largest prime below 2^16 (RFC 1950 9).
    static let base: UInt32 = 65521
    /// NMAX: the most bytes that can be summed before `s2` may overflow 32 bits, so the modulo
    /// is deferred to once per NMAX bytes. Largest n with 255·n(n+1)/2 + (n+1)(BASE−1) ≤ 2^32−1
    /// (zlib's published bound): n = 5552.
    static let nmax = 5552
    /// 16-byte chunks summed in 16-bit lanes before widening (see ``update(_:)``).
    static let sixteenBitRun = 22

    /// The Adler-32 of all bytes passed to ``update(_:)`` so far (1 for no bytes).
    public private(set) var value: UInt32 = 1

    /// Starts an Adler-32 over no bytes (value 1).
    public init() {}

    /// Folds `bytes` into ``value``.
    ///
    /// Sixteen bytes at a time in SIMD lanes. For a block of n bytes x₀…xₙ₋₁ starting from
    /// (s1, s2): s1' = s1 + Σxᵢ and s2' = s2 + n·s1 + Σ(n − i)·xᵢ. With 16-byte chunks k (K in the
    /// block) and lanes j, (n − i) = 16·(K − 1 − k) + (16 − j), so
    /// Σ(n − i)·xᵢ = 16·Σₖ (bytes of the chunks before k) + Σⱼ (16 − j)·(lane j's sum): the first
    /// part needs only whole-chunk totals, the second the lane sums, weighted once per block.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        if bytes.count < Adler32.shortInput {
            value = Adler32.updateShort(value, base.assumingMemoryBound(to: UInt8.self), bytes.count)
            return
        }
        var s1 = UInt64(value & 0xFFFF)
        var s2 = UInt64(value >> 16)
        var p = base.assumingMemoryBound(to: UInt8.self)
        var remaining = bytes.count
        // Lane sums are kept as 8 even and 8 odd lanes (see the run's end), so the weights are too.
        let evenWeights = SIMD8<UInt32>(16, 14, 12, 10, 8, 6, 4, 2)
        let oddWeights = SIMD8<UInt32>(15, 13, 11, 9, 7, 5, 3, 1)
        while remaining >= 16 {
            // At most NMAX bytes per block keeps every lane below 2^32 (a lane sum ≤ 255 · 347).
            let chunks = min(remaining, Adler32.nmax) / 16
            var evenSums = SIMD8<UInt32>(repeating: 0)
            var oddSums = SIMD8<UInt32>(repeating: 0)
            // Σₖ (bytes of the chunks before k), and the bytes so far, over the block.
            var before: UInt64 = 0
            var total: UInt64 = 0
            var chunksLeft = chunks
            while chunksLeft > 0 {
                // Runs of up to 22 chunks add in 16-bit lanes (widening bytes to 16 bits costs a
                // third of widening them to 32): a lane's sum stays ≤ 255 · 22 and its prefix sum
                // ≤ 255 · 22 · 21 / 2 = 58 905 < 2^16. 1.5x the speed of 32-bit lanes throughout.
                let run = min(chunksLeft, Adler32.sixteenBitRun)
                var runSums = SIMD16<UInt16>(repeating: 0)
                var runPrefixSums = SIMD16<UInt16>(repeating: 0)
                for _ in 0..<run {
                    let chunk = UnsafeRawPointer(p).loadUnaligned(as: SIMD16<UInt8>.self)
                    runPrefixSums &+= runSums
                    runSums &+= SIMD16<UInt16>(truncatingIfNeeded: chunk)
                    p += 16
                }
                // Widened by reading the 16-bit lanes in pairs as 32-bit lanes: the low halves are
                // the even lanes, the high halves the odd ones (a mask and a shift, no shuffles).
                let sums = unsafeBitCast(runSums, to: SIMD8<UInt32>.self)
                let prefixes = unsafeBitCast(runPrefixSums, to: SIMD8<UInt32>.self)
                let even = sums & 0xFFFF, odd = sums &>> 16
                evenSums &+= even
                oddSums &+= odd
                // Each chunk of the run also follows all bytes of the runs before it.
                before &+= UInt64(((prefixes & 0xFFFF) &+ (prefixes &>> 16)).wrappedSum()) &+ UInt64(run) &* total
                total &+= UInt64((even &+ odd).wrappedSum())
                chunksLeft -= run
            }
            let n = UInt64(chunks * 16)
            s2 += n * s1 + 16 * before + UInt64((evenSums &* evenWeights).wrappedSum() &+ (oddSums &* oddWeights).wrappedSum())
            s1 += total
            s1 %= UInt64(Adler32.base)
            s2 %= UInt64(Adler32.base)
            remaining -= chunks * 16
        }
        while remaining > 0 {
            s1 += UInt64(p.pointee)
            s2 += s1
            p += 1
            remaining -= 1
        }
        value = UInt32(s2 % UInt64(Adler32.base)) << 16 | UInt32(s1 % UInt64(Adler32.base))
    }

    /// Below this many bytes (a streaming inflater fed a byte at a time delivers 1–3 bytes per
    /// call) the sums are kept reduced byte by byte with a compare and subtract instead of the
    /// two divisions of the block path.
    static let shortInput = 16

    /// The Adler-32 `value` after `count` more bytes, each sum kept below BASE at every step:
    /// s1 < BASE and a byte ≤ 255 give s1 + byte < 2·BASE, so one subtraction reduces it (same for s2).
    @inline(__always)
    static func updateShort(_ value: UInt32, _ bytes: UnsafePointer<UInt8>, _ count: Int) -> UInt32 {
        var s1 = value & 0xFFFF, s2 = value >> 16
        for index in 0..<count {
            s1 &+= UInt32(bytes[index])
            if s1 >= base { s1 &-= base }
            s2 &+= s1
            if s2 >= base { s2 &-= base }
        }
        return s2 << 16 | s1
    }

    /// Folds the bytes of an array into ``value``.
    public mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The Adler-32 of `bytes`; `Adler32.checksum(Array("Wikipedia".utf8)) == 0x11E60398`.
    public static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var adler = Adler32()
        adler.update(bytes)
        return adler.value
    }
}
