/// How the blocks of a scan are entropy-coded (T.81 F.2 sequential, G.1.2 progressive).
///
/// ``ScanDecoder`` switches on it once per block; each case has its own block decoder and
/// worst-case size, while MCU iteration, restarts and the decode-when-buffered rule stay shared.
enum ScanCoding: Equatable {
    /// Sequential DCT (baseline or extended): every block's DC difference and 63 AC coefficients.
    case sequential
    /// Sequential DCT into raw (not dequantized) 16-bit coefficients: 12-bit images, whose
    /// dequantized values need more than the 16 bits ``sequential`` keeps.
    case sequentialRaw
    /// Progressive DC first scan (G.1.2.1): DC differences, stored shifted left by `shift` (Al).
    case dcFirst(shift: Int)
    /// Progressive DC refinement (G.1.2.1): one more bit (bit `shift`) of each DC coefficient.
    case dcRefinement(shift: Int)
    /// Progressive AC first scan (G.1.2.2) of zig-zag band `start...end`, values shifted by `shift`.
    case acFirst(start: Int, end: Int, shift: Int)
    /// Progressive AC refinement (G.1.2.3) of band `start...end` at bit `shift`.
    case acRefinement(start: Int, end: Int, shift: Int)

    /// The coding a scan header asks for in a sequential or progressive frame; its parameters
    /// must already be validated (``ProgressiveScanRules``).
    static func of(_ scan: ScanHeader, progressive: Bool, rawSequential: Bool = false) -> ScanCoding {
        guard progressive else { return rawSequential ? .sequentialRaw : .sequential }
        let shift = scan.approximationLow
        if scan.spectralStart == 0 {
            return scan.approximationHigh == 0 ? .dcFirst(shift: shift) : .dcRefinement(shift: shift)
        }
        return scan.approximationHigh == 0
            ? .acFirst(start: scan.spectralStart, end: scan.spectralEnd, shift: shift)
            : .acRefinement(start: scan.spectralStart, end: scan.spectralEnd, shift: shift)
    }

    /// Whether this is a progressive scan (coefficients accumulate over scans rather than being replaced).
    var isProgressive: Bool { self != .sequential && self != .sequentialRaw }

    /// Whether blocks are raw `Int16` storage that keeps what earlier scans gave it (every case
    /// but ``sequential``, whose one-row storage is dequantized `Int32`).
    var storesRawCoefficients: Bool { self != .sequential }

    /// Whether blocks need a DC Huffman table (sequential and DC first scans).
    var usesDCTable: Bool {
        switch self {
        case .sequential, .sequentialRaw, .dcFirst: return true
        default: return false
        }
    }

    /// Whether blocks need an AC Huffman table.
    var usesACTable: Bool {
        switch self {
        case .sequential, .sequentialRaw, .acFirst, .acRefinement: return true
        default: return false
        }
    }

    /// Whether decoding never throws: damage in these scans is reported and decoded past, while
    /// a DC first or sequential scan stops with an error when a DC predictor overflows.
    var neverThrows: Bool {
        switch self {
        case .acFirst, .acRefinement, .dcRefinement: return true
        case .sequential, .sequentialRaw, .dcFirst: return false
        }
    }

    /// Bytes one block can take at most, so an MCU is only decoded when they are buffered; every
    /// figure is doubled for 0xFF00 stuffing. A band of n coefficients (n = 64 sequential) takes:
    /// - sequential and AC first: at most n symbols of a 16-bit code and ≤ 15 extra bits (EOBr:
    ///   code + ≤ 14 bits), so 31·n bits; sequential: 64 × 31 bits = 248 bytes → 496.
    /// - AC refinement: at most n symbols of a code and a sign bit, one correction bit per
    ///   position and one EOB run (16 + 14 bits): 18·n + 30 bits.
    /// - DC first: a 16-bit code and ≤ 15 bits → 4 bytes → 8. DC refinement: 1 bit → 2.
    /// Keeping the bound tight matters for previews: a small band's scan decodes as it arrives.
    var worstCaseBlockBytes: Int {
        switch self {
        case .sequential, .sequentialRaw: return 496
        case .acFirst(let start, let end, _): return Self.stuffedBytes(bits: 31 * (end - start + 1) + 30)
        case .acRefinement(let start, let end, _): return Self.stuffedBytes(bits: 18 * (end - start + 1) + 30)
        case .dcFirst: return 8
        case .dcRefinement: return 2
        }
    }

    /// Whole bytes holding `bits`, doubled for stuffing.
    private static func stuffedBytes(bits: Int) -> Int { (bits + 7) / 8 * 2 }
}
