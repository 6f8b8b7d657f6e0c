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
    /// Per predicted coefficient, the largest magnitude a prediction may have: 2^n − 1 for n unknown
    /// low bits, unbounded (Int64.max) for a coefficient never sent.
    private var caps = SIMD8<Int64>()
    /// Per predicted coefficient, Q·256 and Q·128 as Doubles, for the rounded division in ``apply``.
    private var divisors = SIMD8<Double>(repeating: 1)
    private var halfDivisors = SIMD8<Double>()
    /// Per predicted coefficient, Q·128: numerators below it predict 0.
    private var zeroBelow = SIMD8<Int64>()
    /// Bit i set when predicted coefficient i may be predicted (it is not exact).
    private var inexactMask: UInt8 = 0

    /// The smoothing for one component, or nil when it would not change anything or cannot run
    /// (no DC yet, every predicted coefficient exact, or a zero quantizer).
    init?(coefficientBits bits: ArraySlice<Int>, quantization: UnsafePointer<Int32>) {
        let base = bits.startIndex
        guard bits[base] >= 0 else { return nil }
        dcQuantizer = Int64(quantization[0])
        for (slot, index) in Self.predictedIndices.enumerated() {
            approximationBits[slot] = Int64(bits[base + index])
            quantizers[slot] = Int64(quantization[index])
            guard quantization[index] > 0 else { return nil }
            let unknownBits = bits[base + index]
            if unknownBits != 0 { inexactMask |= UInt8(1) << UInt8(slot) }
            // Scan headers allow at most 13 unknown bits (Al ≤ 13); the cap is only clamped for safety.
            caps[slot] = unknownBits > 0 ? (Int64(1) << Int64(min(unknownBits, 62))) - 1 : Int64.max
            divisors[slot] = Double(quantizers[slot] << 8)
            halfDivisors[slot] = Double(quantizers[slot] << 7)
            zeroBelow[slot] = quantizers[slot] << 7
        }
        guard inexactMask != 0, dcQuantizer > 0 else { return nil }
    }

    /// Whether a block with raw coefficients `raw` gets any prediction: some predicted coefficient
    /// is zero and not exact. Blocks that do not need no neighbourhood and no other work.
    @inline(__always)
    func predictsAny(_ raw: UnsafePointer<Int16>) -> Bool {
        let zero = UInt8(raw[1] == 0 ? 1 : 0) | UInt8(raw[8] == 0 ? 2 : 0) | UInt8(raw[16] == 0 ? 4 : 0)
            | UInt8(raw[9] == 0 ? 8 : 0) | UInt8(raw[2] == 0 ? 16 : 0)
        return zero & inexactMask != 0
    }

    /// Fills the zero, not-exact predicted coefficients of a block from the DC values of its 3×3
    /// neighbourhood `dc`: `raw` are its raw coefficients, `block` the same dequantized (natural
    /// order), where each prediction is stored times its quantizer. Returns whether it stored a
    /// non-zero value (all of them lie in the top-left triangle, zig-zag 1...5).
    @inline(__always)
    func apply(raw: UnsafePointer<Int16>, dc: DCNeighbourhood, into block: UnsafeMutablePointer<Int32>) -> Bool {
        // K.8.2 weights in libjpeg's integer scaling: 1.13885 / 8 ≈ 36 / 256, and so on.
        var stored: Int32 = 0
        stored |= predict(0, index: 1, 36 * (dc.left - dc.right), raw, block)                              // AC01
        stored |= predict(1, index: 8, 36 * (dc.above - dc.below), raw, block)                             // AC10
        stored |= predict(2, index: 16, 9 * (dc.above + dc.below - 2 * dc.centre), raw, block)             // AC20
        stored |= predict(3, index: 9, 5 * (dc.aboveLeft - dc.aboveRight - dc.belowLeft + dc.belowRight), raw, block) // AC11
        stored |= predict(4, index: 2, 9 * (dc.left + dc.right - 2 * dc.centre), raw, block)               // AC02
        return stored != 0
    }

    /// Sets predicted coefficient `slot` (natural index `index`) from its weighted DC difference if
    /// it is zero and not exact; returns the dequantized value stored (0 if none).
    @inline(__always)
    private func predict(_ slot: Int, index: Int, _ weighted: Int64, _ raw: UnsafePointer<Int16>,
                         _ block: UnsafeMutablePointer<Int32>) -> Int32 {
        guard inexactMask & (UInt8(1) << UInt8(slot)) != 0, raw[index] == 0 else { return 0 }
        // DC values are 16-bit and quantizers 16-bit: the products stay far inside Int64, below 2^53.
        let numerator = weighted &* dcQuantizer
        let absolute = numerator < 0 ? 0 &- numerator : numerator
        // Rounded division by 256·Q: ⌊(|n| + 128·Q) / (256·Q)⌋, capped below the unknown low bits.
        // Both operands are integers below 2^53, so the Double quotient is within quotient · 2^-53,
        // less than 1 / (256·Q), of the true one, which is an integer or at least 1 / (256·Q) from
        // one: truncating it gives the exact integer quotient, at a fraction of a 64-bit division's cost.
        // Smooth neighbourhoods mostly predict 0 (|n| < 128·Q), which needs no division at all.
        guard absolute >= zeroBelow[slot] else { return 0 }
        let magnitude = min(Int64((Double(absolute) + halfDivisors[slot]) / divisors[slot]), caps[slot])
        // Dequantized like every coefficient: the low 16 bits of the product (see RawBlockRowDrawer).
        let prediction = Int32(truncatingIfNeeded: numerator < 0 ? 0 &- magnitude : magnitude)
        let value = Int32(Int16(truncatingIfNeeded: prediction &* Int32(truncatingIfNeeded: quantizers[slot])))
        block[index] = value
        return value
    }
}
