/// pHYs (PNG 11.3.5.3): pixels per unit in each direction.
public struct PNGPhysicalDimensions: Sendable, Hashable {
    /// Pixels per unit, x axis.
    public var pixelsPerUnitX: UInt32
    /// Pixels per unit, y axis.
    public var pixelsPerUnitY: UInt32
    /// Unit 1: the metre; unit 0: unknown (the values give only the aspect ratio).
    public var unitIsMeter: Bool

    /// Makes dimensions.
    public init(pixelsPerUnitX: UInt32, pixelsPerUnitY: UInt32, unitIsMeter: Bool) {
        self.pixelsPerUnitX = pixelsPerUnitX
        self.pixelsPerUnitY = pixelsPerUnitY
        self.unitIsMeter = unitIsMeter
    }
}
