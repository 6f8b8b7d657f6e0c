/// Adler-32 as used by zlib (RFC 1950 8.2): two sums modulo 65521, `s1` (1 + the bytes) and
/// `s2` (the sum of the successive `s1` values); the value is `s2 << 16 | s1`.
public struct Adler32: Sendable {
    /// The largest prime below 2^16 (RFC 1950 9).
    static let base: UInt32 = 65521
    /// NMAX: the most bytes that can be summed before `s2` may overflow 32 bits, so the modulo
    /// is deferred to once per NMAX bytes. Largest n with 255·n(n+1)/2 + (n+1)(BASE−1) ≤ 2^32−1
    /// (zlib's published bound): n = 5552.
    static let nmax = 5552
    /// 16-byte chunks summed in 16-bit lanes before widening (see ``update(_:)``): a lane's
    /// prefix sum stays ≤ 255 · 20 · 19 / 2 = 48 450 < 2^16, and a multiple of the inner loop's
    /// unrolling (4), so a run has no remainder loop.
    static let sixteenBitRun = 20
    /// Chunks per block: whole runs (17), at most NMAX bytes (5 440 ≤ 5 552).
    static let blockChunks = 17 * sixteenBitRun

    /// The Adler-32 of all bytes passed to ``update(_:)`` so far (1 for no bytes).
    public private(set) var value: UInt32 = 1

    /// Starts an Adler-32 over no bytes (value 1).
    public init() {}

    /// Folds `bytes` into ``value``.
    ///
    /// Sixteen bytes at a time in SIMD lanes. For a block of n bytes x₀…xₙ₋₁ starting from
    /// (s1, s2): s1' = s1 + Σxᵢ and s2' = s2 + n·s1 + Σ(n − i)·xᵢ. With 16-byte chunks k (K in the
    /// block) and lanes j, (n − i) = 16·(K − 1 − k) + (16 − j), so
    /// Σ(n − i)·xᵢ = 16·Σⱼ Pⱼ + Σⱼ (16 − j)·Sⱼ, where Sⱼ is lane j's sum over the block and
    /// Pⱼ = Σₖ (lane j's bytes in the chunks before k), its prefix sums. Both are kept per lane,
    /// in 16-bit lanes within a run of 20 chunks and in 32-bit lanes across the block's runs;
    /// the lanes are summed and weighted once per block.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        if bytes.count < Adler32.shortInput {
            value = Adler32.updateShort(value, base.assumingMemoryBound(to: UInt8.self), bytes.count)
            return
        }
        var s1 = UInt64(value & 0xFFFF)
        var s2 = UInt64(value >> 16)
        var p = UnsafeRawPointer(base)
        var remaining = bytes.count
        // Lane sums are kept as 8 even and 8 odd lanes (see the run's end), so the weights are too.
        let evenWeights = SIMD8<UInt32>(16, 14, 12, 10, 8, 6, 4, 2)
        let oddWeights = SIMD8<UInt32>(15, 13, 11, 9, 7, 5, 3, 1)
        let run = Adler32.sixteenBitRun
        while remaining >= 16 {
            let chunks = min(remaining / 16, Adler32.blockChunks)
            // Over the block, in 32-bit lanes (a lane of prefix sums is ≤ 255 · 340 · 339 · 2 < 2^26):
            // the lane sums Sⱼ (even and odd lanes apart: they are weighted); the prefix sums
            // within each run; and the sums before each whole run, which every chunk of that run
            // follows (`run` times each, multiplied once at the end). Only the totals of the last
            // two are needed, so even and odd lanes share one vector (four vectors in all, which
            // keeps the unrolled run free of spills).
            var evenSums = SIMD8<UInt32>(repeating: 0), oddSums = SIMD8<UInt32>(repeating: 0)
            var prefixes = SIMD8<UInt32>(repeating: 0)
            var sumsBeforeRuns = SIMD8<UInt32>(repeating: 0)
            // A run's 16-bit sums: per byte lane j of the chunks, the sum (even lanes `even`, odd
            // lanes `odd`) and the prefix sums (`evenPrefixes`, `oddPrefixes`).
            typealias RunSums = (even: SIMD8<UInt16>, odd: SIMD8<UInt16>, evenPrefixes: SIMD8<UInt16>, oddPrefixes: SIMD8<UInt16>)
            // Adds one run's 16-bit sums to the block's 32-bit lanes.
            @inline(__always) func addRun(_ sums: RunSums) {
                prefixes &+= SIMD8<UInt32>(truncatingIfNeeded: sums.evenPrefixes) &+ SIMD8<UInt32>(truncatingIfNeeded: sums.oddPrefixes)
                evenSums &+= SIMD8<UInt32>(truncatingIfNeeded: sums.even)
                oddSums &+= SIMD8<UInt32>(truncatingIfNeeded: sums.odd)
            }
            // Sums one run of `count` chunks in 16-bit lanes without widening the bytes: a chunk read
            // as eight 16-bit lanes (little-endian) holds even + 256 · odd byte per lane. Summed
            // as is (wrapping), alongside the odd bytes alone (a shift), the even sums come out as
            // total − 256 · odd mod 2^16, exact because every sum in a run is < 2^16. Two adds
            // and a shift per chunk where widening took two unpacks and two adds.
            @inline(__always) func sumRun(_ count: Int) -> RunSums {
                var total = SIMD8<UInt16>(repeating: 0), odd = SIMD8<UInt16>(repeating: 0)
                var totalPrefixes = SIMD8<UInt16>(repeating: 0), oddPrefixes = SIMD8<UInt16>(repeating: 0)
                for _ in 0..<count {
                    let pairs = p.loadUnaligned(as: SIMD8<UInt16>.self)
                    totalPrefixes &+= total
                    oddPrefixes &+= odd
                    total &+= pairs
                    odd &+= pairs &>> 8
                    p += 16
                }
                return (total &- (odd &<< 8), odd, totalPrefixes &- (oddPrefixes &<< 8), oddPrefixes)
            }
            let wholeRuns = chunks / run
            for _ in 0..<wholeRuns {
                sumsBeforeRuns &+= evenSums &+ oddSums
                addRun(sumRun(run))
            }
            var before = UInt64(prefixes.wrappedSum()) &+ UInt64(run) &* UInt64(sumsBeforeRuns.wrappedSum())
            let tail = chunks - wholeRuns * run
            if tail > 0 {
                // The last, shorter run follows every byte summed so far, `tail` times.
                let sumsSoFar = UInt64((evenSums &+ oddSums).wrappedSum())
                let sums = sumRun(tail)
                prefixes = .zero
                addRun(sums)
                before &+= UInt64(prefixes.wrappedSum()) &+ UInt64(tail) &* sumsSoFar
            }
            let n = UInt64(chunks * 16)
            s2 += n * s1 + 16 * before + UInt64((evenSums &* evenWeights).wrappedSum() &+ (oddSums &* oddWeights).wrappedSum())
            s1 += UInt64((evenSums &+ oddSums).wrappedSum())
            s1 %= UInt64(Adler32.base)
            s2 %= UInt64(Adler32.base)
            remaining -= chunks * 16
        }
        var q = p.assumingMemoryBound(to: UInt8.self)
        while remaining > 0 {
            s1 += UInt64(q.pointee)
            s2 += s1
            q += 1
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
