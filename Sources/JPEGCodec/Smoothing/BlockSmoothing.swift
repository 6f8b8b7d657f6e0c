/// Estimates the missing low-frequency coefficients of a block drawn from incomplete progressive
/// data from the DC values of the 5×5 blocks around it, exactly as libjpeg-turbo 2.1 and later
/// do (jdcoefct.c `decompress_smooth_data`), so a picture with only DC (or few AC bands) is not
/// blocky and equals djpeg's.
///
/// Two forms, chosen per component from its coefficient bits (libjpeg's `coef_bits`, zig-zag 0...9:
/// -1 never sent, 0 exact, n > 0 low n bits unknown):
/// - no AC coefficient 1...9 sent yet (only DC): a Gaussian-like kernel predicts zig-zag 1...9 and
///   replaces DC itself by a smoothed DC that keeps the average;
/// - otherwise: a 5×5 extension of T.81 K.8 predicts zig-zag 1...5.
/// A coefficient is predicted only while it is zero and not exact; a prediction for a coefficient
/// with n unknown low bits is kept below 2^n. Each prediction is libjpeg's rounded integer division
/// of Q00 × (weighted DC sum) by 256 × its own quantizer, truncated to 16 bits as its JCOEF.
struct BlockSmoothing: Equatable {
    /// Natural-order indices of zig-zag positions 0...9.
    static let naturalIndices: [Int] = (0..<10).map { ZigZag.naturalIndex($0) }

    /// Per zig-zag position 0...9, the coefficient bits (lane 0 unused).
    private var bits = SIMD16<Int32>()
    /// Per zig-zag position 0...9, the quantizer as the table holds it (16 bits unsigned), for the predictions.
    private var quantizers = SIMD16<Int32>()
    /// Per zig-zag position 0...9, the quantizer truncated to 16 bits signed, as the dequantization multiplies.
    private var dequantizers = SIMD16<Int32>()
    /// Bit k set when zig-zag position k (1...9) may be predicted.
    private var predicted: UInt16 = 0
    /// Only DC is known: DC is smoothed and zig-zag 1...9 predicted with the wider kernel.
    let changesDC: Bool

    /// The smoothing for one component with coefficient bits `bits` (zig-zag 0...9) and the
    /// component's 64 latched quantizers `quantization` (natural order, 16-bit values as the
    /// coefficient store keeps them); nil when it would change nothing (every coefficient 1...9 exact).
    init?(bits: [Int], quantization: UnsafePointer<Int32>) {
        guard bits.count >= 10 else { return nil }
        changesDC = (1..<10).allSatisfy { bits[$0] == -1 }
        for k in 0..<10 {
            let stored = quantization[Self.naturalIndices[k]]
            quantizers[k] = Int32(UInt16(truncatingIfNeeded: stored))
            dequantizers[k] = Int32(Int16(truncatingIfNeeded: stored))
            // Scan headers allow Al ≤ 13; clamped for safety.
            self.bits[k] = Int32(min(max(bits[k], -1), 13))
            if k > 0 && bits[k] != 0 && (k <= 5 || changesDC) { predicted |= UInt16(1) << UInt16(k) }
        }
        guard predicted != 0 else { return nil }
    }

    /// Whether a block with raw coefficients `raw` gets any prediction: DC is smoothed, or some
    /// predicted coefficient is zero. Blocks that do not need no neighbourhood and no other work.
    @inline(__always)
    func predictsAny(_ raw: UnsafePointer<Int16>) -> Bool {
        if changesDC { return true }
        let zero = UInt16(raw[1] == 0 ? 2 : 0) | UInt16(raw[8] == 0 ? 4 : 0) | UInt16(raw[16] == 0 ? 8 : 0)
            | UInt16(raw[9] == 0 ? 16 : 0) | UInt16(raw[2] == 0 ? 32 : 0)
        return zero & predicted != 0
    }

    /// Applies the predictions to a block: `raw` are its raw coefficients, `block` the same
    /// dequantized (natural order), where each prediction is stored dequantized. Returns the block's
    /// ``BlockShape`` after it, from `shape` before.
    @inline(__always)
    func apply(raw: UnsafePointer<Int16>, dc neighbourhood: DCNeighbourhood, shape: UInt8,
               into block: UnsafeMutablePointer<Int32>) -> UInt8 {
        let (triangle, square) = predict(raw: raw, dc: neighbourhood, into: DequantizedPredictions(block: block))
        if changesDC {
            if shape == BlockShape.full { return shape }
            if square { return BlockShape.topLeft4x4 }
        }
        return triangle && shape == BlockShape.dcOnly ? BlockShape.triangle : shape
    }

    /// Applies the predictions to `copy`, a copy of the raw coefficients `raw` (natural order):
    /// each prediction is stored raw, as libjpeg stores it in its workspace block before the IDCT
    /// dequantizes it (the 12-bit path, whose IDCT dequantizes in 64 bits).
    @inline(__always)
    func apply(raw: UnsafePointer<Int16>, dc neighbourhood: DCNeighbourhood, intoCopy copy: UnsafeMutablePointer<Int16>) {
        _ = predict(raw: raw, dc: neighbourhood, into: RawPredictions(block: copy))
    }

    /// Computes every prediction for a block with raw coefficients `raw` and hands each to
    /// `target`; returns whether a non-zero value was stored in zig-zag 1...5 (`triangle`) and in
    /// 6...9 (`square`).
    @inline(__always)
    private func predict<Target: PredictionTarget>(raw: UnsafePointer<Int16>, dc neighbourhood: DCNeighbourhood,
                                                   into target: Target) -> (triangle: Bool, square: Bool) {
        var triangle = false, square = false
        if changesDC {
            // The first scan's previews: the weights of ``SmoothingKernels/dcOnly`` written out as
            // sums over their symmetries (scalar sums cost less than 25-lane dot products; tests
            // hold them equal to the kernels).
            let sums = DCOnlySums(neighbourhood)
            triangle = predictScalar(1, sums.ac01, raw, target) || triangle
            triangle = predictScalar(2, sums.ac10, raw, target) || triangle
            triangle = predictScalar(3, sums.ac20, raw, target) || triangle
            triangle = predictScalar(4, sums.ac11, raw, target) || triangle
            triangle = predictScalar(5, sums.ac02, raw, target) || triangle
            square = predictScalar(6, sums.ac03, raw, target) || square
            square = predictScalar(7, sums.ac12, raw, target) || square
            square = predictScalar(8, sums.ac21, raw, target) || square
            square = predictScalar(9, sums.ac30, raw, target) || square
            // The smoothed DC replaces the block's own, whatever it is.
            _ = target.store(prediction(sums.dc, position: 0), dequantizer: dequantizers[0], naturalIndex: 0)
            return (triangle, square)
        }
        // The common case during AC scans: the few weights of ``SmoothingKernels/acKnown``
        // written out (scalar sums cost less than 25-lane dot products; tests hold them equal).
        let n = neighbourhood
        let row = n.farRight.centre &- n.farLeft.centre, column = n.centre.down2 &- n.centre.up2
        let ac01 = 50 &* (n.left.centre &- n.right.centre) &+ 7 &* row
        let ac10 = 50 &* (n.centre.up1 &- n.centre.down1) &+ 7 &* column
        let ac20 = 13 &* (n.centre.up1 &+ n.centre.down1) &- 24 &* n.centre.centre &- n.centre.up2 &- n.centre.down2
        let corners = (n.left.up1 &- n.right.up1) &- (n.left.down1 &- n.right.down1)
        let outer = (n.right.up2 &- n.left.up2) &+ (n.farRight.up1 &- n.farLeft.up1)
            &+ (n.farLeft.down1 &- n.farRight.down1) &+ (n.left.down2 &- n.right.down2)
        let ac11 = 10 &* corners &+ outer
        let ac02 = 13 &* (n.left.centre &+ n.right.centre) &- 24 &* n.centre.centre &- n.farLeft.centre &- n.farRight.centre
        triangle = predictScalar(1, ac01, raw, target) || triangle
        triangle = predictScalar(2, ac10, raw, target) || triangle
        triangle = predictScalar(3, ac20, raw, target) || triangle
        triangle = predictScalar(4, ac11, raw, target) || triangle
        triangle = predictScalar(5, ac02, raw, target) || triangle
        return (triangle, square)
    }

    /// Predicts zig-zag position `k` from its weighted DC sum `weighted` if it is zero and may be
    /// predicted; returns whether it stored a non-zero value.
    @inline(__always)
    private func predictScalar<Target: PredictionTarget>(_ k: Int, _ weighted: Int, _ raw: UnsafePointer<Int16>,
                                                         _ target: Target) -> Bool {
        let index = Self.naturalIndex(k)
        guard predicted & (UInt16(1) << UInt16(k)) != 0, raw[index] == 0 else { return false }
        let value = prediction(weighted, position: k)
        guard value != 0 else { return false }
        return target.store(value, dequantizer: dequantizers[k], naturalIndex: index)
    }

    /// libjpeg-turbo's prediction for zig-zag position `k` from the weighted DC sum `weighted`:
    /// ⌊(|Q00·w| + 128·Qk) / (256·Qk)⌋ as a 32-bit int, capped below 2^Al for Al > 0, signed like
    /// the sum and kept to 16 bits.
    @inline(__always)
    func prediction(_ weighted: Int, position k: Int) -> Int16 {
        // DC values are 16-bit, weights below 2^10 in sum, quantizers 16-bit: |numerator| < 2^43.
        let numerator = Int(quantizers[0]) &* weighted
        let magnitude = numerator < 0 ? 0 &- numerator : numerator
        let q = Int(quantizers[k])
        // Smooth neighbourhoods mostly predict 0 (|n| < 128·Q), which needs no division at all.
        guard magnitude >= q &<< 7, q > 0 else { return 0 }
        var value = Int32(truncatingIfNeeded: (magnitude &+ (q &<< 7)) / (q &<< 8))
        // DC (k = 0) is never capped.
        let al = bits[k]
        if k > 0 && al > 0 && value >= Int32(1) << al { value = (Int32(1) << al) - 1 }
        return Int16(truncatingIfNeeded: numerator < 0 ? 0 &- value : value)
    }

    @inline(__always)
    private static func naturalIndex(_ k: Int) -> Int {
        switch k {
        case 1: 1
        case 2: 8
        case 3: 16
        case 4: 9
        case 5: 2
        case 6: 3
        case 7: 10
        case 8: 17
        default: 24
        }
    }
}

/// Where ``BlockSmoothing`` stores its predictions. (The targets hold one pointer: copying the
/// smoothing into them per block cost 2.7 % of a previewed progressive decode.)
private protocol PredictionTarget {
    /// Stores `value`, the raw prediction at natural index `naturalIndex`, whose quantizer (cut to
    /// 16 bits) is `dequantizer`; returns whether the stored value is non-zero.
    func store(_ value: Int16, dequantizer: Int32, naturalIndex: Int) -> Bool
}

/// The 8-bit path: predictions stored dequantized in the IDCT's input block, the low 16 bits of
/// the product (libjpeg-turbo's SIMD dequantization, see ``RawBlockRowDrawer``).
private struct DequantizedPredictions: PredictionTarget {
    let block: UnsafeMutablePointer<Int32>

    @inline(__always)
    func store(_ value: Int16, dequantizer: Int32, naturalIndex: Int) -> Bool {
        let stored = Int32(Int16(truncatingIfNeeded: Int32(value) &* dequantizer))
        block[naturalIndex] = stored
        return stored != 0
    }
}

/// The 12-bit path: predictions stored raw in a copy of the block (its IDCT dequantizes).
private struct RawPredictions: PredictionTarget {
    let block: UnsafeMutablePointer<Int16>

    @inline(__always)
    func store(_ value: Int16, dequantizer: Int32, naturalIndex: Int) -> Bool {
        block[naturalIndex] = value
        return value != 0
    }
}
