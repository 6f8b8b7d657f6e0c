/// The 2:1 horizontal triangle filters (``RowUpsampler/h2v1Fancy(_:width:into:)`` and
/// ``RowUpsampler/h2v2Fancy(near:far:width:sums:into:)``) producing even/odd output pairs in
/// 16-bit lanes for ``PairedYCbCrConverter``, so chroma is stretched and converted in one pass
/// without an upsampled row in between.
///
/// Both filters read "column values" s (the samples for h2v1, 3·near + far for h2v2): output 2x is
/// (3·s[x] + s[x − 1] + even bias) >> shift, output 2x + 1 is (3·s[x] + s[x + 1] + odd bias) >> shift.
/// The values are kept with one replicated value at each end (s[−1] = s[0], s[w] = s[w − 1]),
/// which gives exactly libjpeg's edge outputs, so every output is the same formula.
enum PairedChromaUpsampler {
    /// Which filter: its rounding biases and shift.
    struct Filter {
        var evenBias: Int16
        var oddBias: Int16
        var shift: Int16

        /// h2v1 fancy: (3·near + far + 1 or 2) / 4 on the samples.
        static let h2v1 = Filter(evenBias: 1, oddBias: 2, shift: 2)
        /// h2v2 fancy: (3·near + far + 8 or 7) / 16 on the column sums.
        static let h2v2 = Filter(evenBias: 8, oddBias: 7, shift: 4)
    }

    /// Column values needed for `width` samples: s[−1...width] plus 16 spare for vector loads.
    static func valueCount(width: Int) -> Int { width + 2 + 16 }

    /// Writes s = 3·near + far for `width` samples at `values` + 1, with the ends replicated.
    static func fillColumnSums(near: UnsafePointer<UInt8>, far: UnsafePointer<UInt8>, width: Int,
                               into values: UnsafeMutablePointer<UInt16>) {
        // 16-bit lanes, vectorised by the compiler (at most 4 · 255).
        for x in 0..<width { values[x + 1] = UInt16(near[x]) &* 3 &+ UInt16(far[x]) }
        replicateEnds(values, width: width)
    }

    /// Writes the samples themselves (h2v1) at `values` + 1, with the ends replicated.
    static func fillSamples(_ row: UnsafePointer<UInt8>, width: Int, into values: UnsafeMutablePointer<UInt16>) {
        for x in 0..<width { values[x + 1] = UInt16(row[x]) }
        replicateEnds(values, width: width)
    }

    @inline(__always)
    private static func replicateEnds(_ values: UnsafeMutablePointer<UInt16>, width: Int) {
        values[0] = values[1]
        values[width + 1] = values[width]
    }

    /// Outputs 2j...2j + 15 as even/odd lanes. Reads values[j...j + 9] (s[j − 1...j + 8]).
    @inline(__always)
    static func pairs(_ values: UnsafePointer<UInt16>, at j: Int, _ filter: Filter) -> PairedYCbCrConverter.Pairs {
        filtered(values, at: j, evenBias: filter.evenBias, oddBias: filter.oddBias, shift: filter.shift)
    }

    /// ``pairs(_:at:_:)`` less 128: (sum + bias − 128 · 2^shift) >> shift = ((sum + bias) >> shift) − 128,
    /// as the arithmetic shift floors, so centring costs nothing.
    @inline(__always)
    static func centredPairs(_ values: UnsafePointer<UInt16>, at j: Int, _ filter: Filter) -> PairedYCbCrConverter.Pairs {
        let centring = 128 &<< filter.shift
        return filtered(values, at: j, evenBias: filter.evenBias &- centring, oddBias: filter.oddBias &- centring, shift: filter.shift)
    }

    @inline(__always)
    private static func filtered(_ values: UnsafePointer<UInt16>, at j: Int, evenBias: Int16, oddBias: Int16,
                                 shift: Int16) -> PairedYCbCrConverter.Pairs {
        typealias Row = PairedYCbCrConverter.Row
        let raw = UnsafeRawPointer(values + j)
        let left = raw.loadUnaligned(as: Row.self)
        let centre = raw.loadUnaligned(fromByteOffset: 2, as: Row.self)
        let right = raw.loadUnaligned(fromByteOffset: 4, as: Row.self)
        let triple = centre &* 3
        return .init(even: (triple &+ left &+ Row(repeating: evenBias)) &>> Row(repeating: shift),
                     odd: (triple &+ right &+ Row(repeating: oddBias)) &>> Row(repeating: shift))
    }

    /// Output `p` alone (the careful twin of ``pairs(_:at:_:)``, for a row's last pixels).
    @inline(__always)
    static func sample(_ values: UnsafePointer<UInt16>, pixel p: Int, _ filter: Filter) -> UInt8 {
        let j = p >> 1
        let triple = Int(values[j + 1]) * 3
        let sum = p & 1 == 0 ? triple + Int(values[j]) + Int(filter.evenBias) : triple + Int(values[j + 2]) + Int(filter.oddBias)
        return UInt8(truncatingIfNeeded: sum >> Int(filter.shift))
    }
}
