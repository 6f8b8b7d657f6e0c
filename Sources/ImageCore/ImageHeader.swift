/// The container format of an encoded image.
public enum ImageFileFormat: String, Sendable, Hashable {
    /// Portable Network Graphics.
    case png
    /// JPEG (JFIF / Exif).
    case jpeg
    /// Graphics Interchange Format (GIF87a / GIF89a).
    case gif
    /// WebP (RIFF container, lossless VP8L or lossy VP8).
    case webp
}

/// What is known about an image once its header is parsed, before any pixels.
public struct ImageHeader: Sendable, Hashable {
    /// The file format.
    public var fileFormat: ImageFileFormat
    /// Width of the decoded output in pixels (after any JPEG scaling).
    public var width: Int
    /// Height of the decoded output in pixels (after any JPEG scaling).
    public var height: Int
    /// The pixel format ``IncrementalImageDecoder/finish()`` will return.
    public var pixelFormat: PixelFormat
    /// Bits per sample as stored in the file (PNG 1–16, JPEG 8 or 12).
    public var bitDepth: Int
    /// PNG Adam7 or progressive JPEG: the picture arrives coarse first, then sharper.
    public var isProgressive: Bool
    /// EXIF orientation, `.up` when the file has none (may be filled in after the size is known).
    public var orientation: Orientation
    /// The ICC profile bytes, once received.
    public var iccProfile: [UInt8]?
    /// Whether an embedded thumbnail (JPEG Exif IFD1) was found and is shown in place of the rows
    /// not decoded yet (see ``DecodingOptions/usesEmbeddedThumbnail``).
    public var hasEmbeddedThumbnail = false

    /// Makes a header.
    public init(fileFormat: ImageFileFormat, width: Int, height: Int, pixelFormat: PixelFormat, bitDepth: Int,
                isProgressive: Bool, orientation: Orientation = .up, iccProfile: [UInt8]? = nil) {
        self.fileFormat = fileFormat
        self.width = width
        self.height = height
        self.pixelFormat = pixelFormat
        self.bitDepth = bitDepth
        self.isProgressive = isProgressive
        self.orientation = orientation
        self.iccProfile = iccProfile
    }
}
