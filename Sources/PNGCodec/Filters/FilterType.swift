/// The filter-type byte in front of every row (PNG 9.2, filter method 0).
enum FilterType: UInt8, CaseIterable {
    /// 0: the bytes are the samples.
    case none = 0
    /// 1: each byte minus the byte one pixel to the left (`a`).
    case sub = 1
    /// 2: each byte minus the byte above (`b`).
    case up = 2
    /// 3: each byte minus `floor((a + b) / 2)`.
    case average = 3
    /// 4: each byte minus the Paeth predictor of `a`, `b` and the byte above-left (`c`).
    case paeth = 4
}
