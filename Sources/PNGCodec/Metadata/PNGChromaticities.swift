/// cHRM (PNG 11.3.3.1): CIE 1931 x, y of the white point and primaries, each × 100 000 as stored.
public struct PNGChromaticities: Sendable, Hashable {
    /// White point x × 100 000 (e.g. 31270 for D65).
    public var whiteX: UInt32
    /// White point y × 100 000.
    public var whiteY: UInt32
    /// Red x × 100 000.
    public var redX: UInt32
    /// Red y × 100 000.
    public var redY: UInt32
    /// Green x × 100 000.
    public var greenX: UInt32
    /// Green y × 100 000.
    public var greenY: UInt32
    /// Blue x × 100 000.
    public var blueX: UInt32
    /// Blue y × 100 000.
    public var blueY: UInt32

    /// Makes chromaticities from the eight stored values.
    public init(whiteX: UInt32, whiteY: UInt32, redX: UInt32, redY: UInt32,
                greenX: UInt32, greenY: UInt32, blueX: UInt32, blueY: UInt32) {
        self.whiteX = whiteX; self.whiteY = whiteY
        self.redX = redX; self.redY = redY
        self.greenX = greenX; self.greenY = greenY
        self.blueX = blueX; self.blueY = blueY
    }
}
