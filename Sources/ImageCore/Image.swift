/// A decoded picture: tightly packed rows, top to bottom, no padding.
///
/// `pixels.count == width * height * format.bytesPerPixel` always holds.
public struct Image: Sendable, Equatable {
    /// Width in pixels (at least 1).
    public var width: Int
    /// Height in pixels (at least 1).
    public var height: Int
    /// Layout of each pixel.
    public var format: PixelFormat
    /// Pixel bytes, `height` rows of `width * format.bytesPerPixel` bytes.
    public var pixels: [UInt8]
    /// The EXIF orientation the file declared (reported, not applied).
    public var orientation: Orientation
    /// The embedded ICC profile, if the file carried one.
    public var iccProfile: [UInt8]?

    /// Makes an image from packed pixels.
    ///
    /// - Precondition: `pixels.count == width * height * format.bytesPerPixel`
    ///   (a programming error, never reached from decoded input).
    public init(width: Int, height: Int, format: PixelFormat, pixels: [UInt8],
                orientation: Orientation = .up, iccProfile: [UInt8]? = nil) {
        self.width = width
        self.height = height
        self.format = format
        self.pixels = pixels
        self.orientation = orientation
        self.iccProfile = iccProfile
    }

    /// Makes an image of the given size with every byte zero (black, and transparent if it has alpha).
    public init(blankWidth width: Int, height: Int, format: PixelFormat) {
        self.init(width: width, height: height, format: format,
                  pixels: [UInt8](repeating: 0, count: width * height * format.bytesPerPixel))
    }

    /// Bytes in one row.
    public var bytesPerRow: Int { width * format.bytesPerPixel }
}
