/// Estimates missing low-frequency AC coefficients of a progressive preview from the DC values of
/// the neighbouring blocks (T.81 K.8), so a picture with only DC (or few AC bands) is not blocky.
///
/// Used only while coefficients are incomplete: once every scan has delivered coefficients 0...5
/// (natural indices 0, 1, 8, 16, 9, 2) to full precision, the renderer draws plain blocks, so a
/// complete file is unaffected. The predictions use libjpeg's integer form of K.8.2 with a 3×3
/// neighbourhood (DC1 DC2 DC3 / DC4 DC5 DC6 / DC7 DC8 DC9, edges replicated); libjpeg-turbo 2.1
/// extends this to 5×5 and refines DC as well, which this does not do.
struct BlockSmoothing: Equatable {
    /// Natural-order indices of the predicted coefficients: AC01, AC10, AC20, AC11, AC02.
    static let predictedIndices = [1, 8, 16, 9, 2]

    /// Per predicted coefficient (lanes 0...4, in `predictedIndices` order), its successive-
    /// approximation low bit so far: -1 never sent, 0 exact (not predicted), n > 0 low n bits
    /// unknown (the prediction is kept below 2^n). Fixed-size vectors: no heap, no reference counting.
    var approximationBits = SIMD8<Int64>()
    /// Quantizers of DC and the predicted coefficients (all non-zero).
    var dcQuantizer: Int64
    var quantizers = SIMD8<Int64>()

    /// The smoothing for one component, or nil when it would not change anything or cannot run
    /// (no DC yet, every predicted coefficient exact, or a zero quantizer).
    init?(coefficientBits bits: ArraySlice<Int>, quantization: UnsafePointer<Int32>) {
        let base = bits.startIndex
        guard bits[base] >= 0 else { return nil }
        dcQuantizer = Int64(quantization[0])
        var anyInexact = false
        for (slot, index) in Self.predictedIndices.enumerated() {
            approximationBits[slot] = Int64(bits[base + index])
            quantizers[slot] = Int64(quantization[index])
            if bits[base + index] != 0 { anyInexact = true }
            guard quantization[index] > 0 else { return nil }
        }
        guard anyInexact, dcQuantizer > 0 else { return nil }
    }

    /// Fills the zero, not-exact predicted coefficients of `raw` (a copy of the block's raw
    /// coefficients) from the DC values `dc[0...8]` of the 3×3 neighbourhood, row by row.
    func apply(to raw: UnsafeMutablePointer<Int32>, dc: UnsafePointer<Int64>) {
        // K.8.2 weights in libjpeg's integer scaling: 1.13885 / 8 ≈ 36 / 256, and so on.
        predict(0, index: 1, 36 * (dc[3] - dc[5]), raw)                 // AC01: left minus right
        predict(1, index: 8, 36 * (dc[1] - dc[7]), raw)                 // AC10: above minus below
        predict(2, index: 16, 9 * (dc[1] + dc[7] - 2 * dc[4]), raw)     // AC20
        predict(3, index: 9, 5 * (dc[0] - dc[2] - dc[6] + dc[8]), raw)  // AC11
        predict(4, index: 2, 9 * (dc[3] + dc[5] - 2 * dc[4]), raw)      // AC02
    }

    /// Sets predicted coefficient `slot` (natural index `index`) from its weighted DC difference,
    /// if it is zero and not exact.
    @inline(__always)
    private func predict(_ slot: Int, index: Int, _ weighted: Int64, _ raw: UnsafeMutablePointer<Int32>) {
        let bits = approximationBits[slot]
        guard bits != 0, raw[index] == 0 else { return }
        // DC values are 16-bit and quantizers 16-bit: the products stay far inside Int64.
        let numerator = weighted * dcQuantizer
        let q = quantizers[slot]
        // Rounded division by 256·Q, the magnitude capped below the unknown low bits.
        var magnitude = ((q << 7) + abs(numerator)) / (q << 8)
        if bits > 0 && magnitude >= Int64(1) << Int64(bits) { magnitude = (Int64(1) << Int64(bits)) - 1 }
        raw[index] = Int32(truncatingIfNeeded: numerator >= 0 ? magnitude : -magnitude)
    }
}
