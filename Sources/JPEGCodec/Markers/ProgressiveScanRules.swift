import ImageCore

/// The legal spectral-selection and successive-approximation parameters of a progressive scan
/// (T.81 G.1.1.1.1, with libjpeg's 16-bit coefficient bound on Al).
enum ProgressiveScanRules {
    /// Coefficients are 16-bit: libjpeg refuses point transforms above 13.
    static let maxApproximationBit = 13

    /// Throws `invalidData` naming the rule a scan header breaks; `offset` is the SOS marker's.
    static func validate(_ scan: ScanHeader, at offset: Int) throws {
        let ss = scan.spectralStart, se = scan.spectralEnd, ah = scan.approximationHigh, al = scan.approximationLow
        let parameters = "Ss=\(ss) Se=\(se) Ah=\(ah) Al=\(al)"
        func reject(_ rule: String) -> ImageDecodingError {
            ImageDecodingError(.invalidData, at: offset, "progressive scan declares \(parameters): \(rule)")
        }
        if ss == 0 {
            guard se == 0 else { throw reject("a DC scan (Ss=0) must have Se=0") }
        } else {
            guard se >= ss, se <= 63 else { throw reject("an AC scan needs Ss ≤ Se ≤ 63") }
            guard !scan.isInterleaved else {
                throw reject("an AC scan must hold one component, not \(scan.components.count)")
            }
        }
        if ah != 0 {
            guard al == ah - 1 else { throw reject("a refinement scan must have Al = Ah − 1") }
        }
        guard al <= maxApproximationBit else { throw reject("Al must be at most \(maxApproximationBit)") }
    }
}
