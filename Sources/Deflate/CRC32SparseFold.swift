extension CRC32Tables {
    /// The sparse multiple of the CRC-32 generator G(x) the fold uses:
    /// Z(x) = x^203 + x^186 + x^123 + x^85 + x^79 + 1 (found by a meet-in-the-middle search over
    /// x^e mod G; the lowest degree with six terms). Z(x^128) = Z(x)^128 over GF(2), so it is a
    /// multiple of G too, with every term a whole number of 16-byte vectors apart.
    ///
    /// Read from the message's end, XORing the message with a shifted copy of Z(x^128) leaves its
    /// remainder mod G (so its CRC) unchanged; choosing the copy that clears one vector XORs that
    /// vector into the vectors 203 − e later, for each lower term e. Done for every vector but the
    /// last 203, the message becomes zeros (which a zero register passes over unchanged) and 203
    /// vectors (3 248 bytes) whose CRC, by the tables, is the message's. Found as "Chorba"
    /// (S. Russell, 2024, arXiv:2412.16398); this polynomial and loop are our own.
    static let sparseDegree = 203
    /// 203 − e for the lower terms e = 186, 123, 85, 79, 0: how many vectors later each cleared
    /// vector lands (tested against the generator).
    static let sparseDistances = (17, 80, 118, 124, 203)
    /// Below this many bytes the tables are cheaper: the fold always leaves 3 248 bytes for them.
    static let sparseThreshold = 8192
    /// Vectors folded between moves of the history to the front of the scratch buffer.
    static let sparseBlock = 512

    /// Advances the raw register `crc` over `count >= sparseThreshold` bytes at `base`: five XORs
    /// from the scratch and one store per 16 bytes (the tables take about 60 instructions).
    ///
    /// Pulled rather than pushed: the folded vector k is vₖ = wₖ ⊕ vₖ₋₁₇ ⊕ vₖ₋₈₀ ⊕ vₖ₋₁₁₈ ⊕ vₖ₋₁₂₄
    /// ⊕ vₖ₋₂₀₃ (what the earlier vectors pushed into it), so each vector is stored once and read
    /// five times while it is in L1. The folded vectors live in a scratch buffer (the input is the
    /// caller's and stays untouched); the register enters as v₋₂₀₃, which only v₀ reads.
    func sparseFolded(_ crc: UInt32, _ base: UnsafeRawPointer, _ count: Int) -> UInt32 {
        let degree = CRC32Tables.sparseDegree
        let vectors = count / 16
        // The last `degree` vectors are read whole: shorter inputs would be read past their end.
        assert(vectors >= degree, "sparse fold needs at least \(16 * degree) bytes")
        let block = CRC32Tables.sparseBlock
        // History, one block, and room to build the last `degree` vectors after any block.
        return withUnsafeTemporaryAllocation(of: SIMD2<UInt64>.self, capacity: degree + block + degree) { scratch -> UInt32 in
            guard let start = scratch.baseAddress else { return sliced(crc, base, count) }
            start.initialize(repeating: .zero, count: degree)
            start.pointee = SIMD2(UInt64(crc), 0)
            var input = base
            var out = start + degree
            let (d0, d1, d2, d3, d4) = CRC32Tables.sparseDistances
            @inline(__always) func pulled(_ out: UnsafeMutablePointer<SIMD2<UInt64>>) -> SIMD2<UInt64> {
                out[-d0] ^ out[-d1] ^ out[-d2] ^ out[-d3] ^ out[-d4]
            }
            var remaining = vectors - degree
            while remaining > 0 {
                let run = min(remaining, block)
                for _ in 0..<run {
                    out.pointee = input.loadUnaligned(as: SIMD2<UInt64>.self) ^ pulled(out)
                    out += 1
                    input += 16
                }
                remaining -= run
                if remaining > 0 {
                    // The next block reads at most `degree` vectors back; block >= degree, so no overlap.
                    start.update(from: out - degree, count: degree)
                    out = start + degree
                }
            }
            // The last `degree` vectors are not cleared: they take what the cleared ones pushed
            // (reads of the region itself must see zeros). Built from the last down, each reads
            // only below itself, which is still zero or a cleared vector.
            out.initialize(repeating: .zero, count: degree)
            var index = degree
            while index > 0 {
                index -= 1
                out[index] = (input + 16 * index).loadUnaligned(as: SIMD2<UInt64>.self) ^ pulled(out + index)
            }
            let register = update(0, UnsafeRawPointer(out), 16 * degree)
            return sliced(register, input + 16 * degree, count - 16 * vectors)
        }
    }
}
