/// EXIF orientation (TIFF tag 0x0112): how the stored pixels must be turned to be shown upright.
///
/// Decoders report it and never apply it on their own; call
/// ``Image/applyingOrientation()`` to get the upright picture.
public enum Orientation: UInt8, Sendable, Hashable, CaseIterable {
    /// 1: stored upright.
    case up = 1
    /// 2: mirrored left to right.
    case upMirrored = 2
    /// 3: rotated 180°.
    case down = 3
    /// 4: mirrored top to bottom.
    case downMirrored = 4
    /// 5: mirrored along the top-left to bottom-right diagonal (transpose).
    case leftMirrored = 5
    /// 6: must be turned 90° clockwise to be upright.
    case right = 6
    /// 7: mirrored along the top-right to bottom-left diagonal (transverse).
    case rightMirrored = 7
    /// 8: must be turned 90° counter-clockwise to be upright.
    case left = 8

    /// Whether showing the image upright swaps its width and height.
    public var swapsDimensions: Bool { rawValue >= 5 }
}
