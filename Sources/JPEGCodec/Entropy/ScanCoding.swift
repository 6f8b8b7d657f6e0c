/// How the blocks of a scan are entropy-coded (T.81 G.1.2 for the progressive cases).
///
/// ``ScanDecoder`` switches on it once per block; the progressive cases (DC first and refinement,
/// AC first and refinement with EOB runs) are added here, each with its own block decoder and
/// worst-case size, while MCU iteration, restarts and the decode-when-buffered rule stay shared.
enum ScanCoding: Equatable {
    /// Sequential DCT (baseline or extended): every block's DC difference and 63 AC coefficients.
    case sequential

    /// Bytes one block can take at most, so an MCU is only decoded when they are buffered.
    /// Sequential: a 16-bit code and 15 extra bits for the DC and for each of up to 63 AC symbols
    /// = 64 × 31 bits = 248 bytes, doubled for 0xFF00 stuffing = 496 bytes.
    var worstCaseBlockBytes: Int {
        switch self {
        case .sequential: return 496
        }
    }
}
