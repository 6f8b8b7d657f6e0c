/// Which coefficients of each component the scans so far have sent, and to what precision, kept
/// the way libjpeg-turbo keeps them for block smoothing (`coef_bits` and, since 2.1, the history
/// row `coef_bits[c + components]`): block smoothing of an incomplete file depends on both.
///
/// Per component and zig-zag position 0...9: the Al of the last scan that coded it, -1 before any
/// (``current``); and, set when a scan of the component starts, the bits of positions 1...9 as they
/// were just before that scan (``previous``; libjpeg records 0 instead during the file's first scan).
struct CoefficientBitHistory {
    /// Zig-zag positions tracked: the ones block smoothing reads.
    static let positions = 10

    private let componentCount: Int
    private var currentBits: [Int]
    private var previousBits: [Int]
    /// SOS segments seen (libjpeg's `input_scan_number`).
    private(set) var scansStarted = 0

    init(componentCount: Int) {
        self.componentCount = componentCount
        currentBits = Array(repeating: -1, count: componentCount * Self.positions)
        previousBits = Array(repeating: -1, count: componentCount * Self.positions)
    }

    /// Records a scan of `components` (frame indices) coding zig-zag `spectralStart...spectralEnd`
    /// with low bit `approximationLow`.
    mutating func startScan(components: [Int], spectralStart: Int, spectralEnd: Int, approximationLow: Int) {
        scansStarted += 1
        for c in components where c < componentCount {
            let base = c * Self.positions
            for k in 1..<Self.positions { previousBits[base + k] = scansStarted > 1 ? currentBits[base + k] : 0 }
            guard spectralStart < Self.positions, spectralStart <= spectralEnd else { continue }
            for k in spectralStart...min(spectralEnd, Self.positions - 1) { currentBits[base + k] = approximationLow }
        }
    }

    /// Component `c`'s bits now (zig-zag 0...9).
    func current(_ c: Int) -> [Int] {
        Array(currentBits[(c * Self.positions)..<((c + 1) * Self.positions)])
    }

    /// Component `c`'s bits as libjpeg latches them for rows past the last one the last scan
    /// decoded with data: DC as now, positions 1...9 from the history (all -1 while at most one
    /// scan has started).
    func previous(_ c: Int) -> [Int] {
        var bits = current(c)
        for k in 1..<Self.positions { bits[k] = scansStarted > 1 ? previousBits[c * Self.positions + k] : -1 }
        return bits
    }

    /// Whether libjpeg smooths at all (`smoothing_ok`): every component has had its DC scan begin
    /// and non-zero quantizers at zig-zag 0...9 (`quantization`: per component 64, natural order,
    /// 0 until latched), and some component has a coefficient 1...9 not exact yet.
    func smoothingApplies(quantization: UnsafePointer<Int32>) -> Bool {
        var useful = false
        for c in 0..<componentCount {
            let base = c * Self.positions
            guard currentBits[base] >= 0 else { return false }
            for k in 0..<Self.positions where quantization[c * 64 + ZigZag.naturalIndex(k)] == 0 { return false }
            for k in 1..<Self.positions where currentBits[base + k] != 0 { useful = true }
        }
        return useful
    }
}
