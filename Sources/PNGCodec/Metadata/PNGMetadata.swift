import ColorManagement
import ImageCore

/// The ancillary information a PNG file carries (PNG 11.3), as stored: nothing here is applied
/// to the pixels (no gamma, colour management, background compositing or sBIT shifting).
///
/// Filled in as the chunks arrive; chunks before IDAT are known once the first pixels are,
/// text and tIME may also come after the image data.
public struct PNGMetadata: Sendable, Hashable {
    /// gAMA (PNG 11.3.3.2): image gamma × 100 000, e.g. 45455 for 1/2.2.
    public var gamma: UInt32?
    /// cHRM (PNG 11.3.3.1): white point and primaries.
    public var chromaticities: PNGChromaticities?
    /// sRGB (PNG 11.3.3.5): the image is sRGB with this rendering intent.
    public var srgbRenderingIntent: PNGRenderingIntent?
    /// cICP (PNG 3rd edition 11.3.2.6): H.273 code points; wins over iCCP, sRGB, gAMA and cHRM.
    public var codingIndependentCodePoints: CodingIndependentCodePoints?
    /// iCCP (PNG 11.3.3.3): the profile's name (1 ... 79 Latin-1 characters).
    public var iccProfileName: String?
    /// iCCP: the inflated ICC profile.
    public var iccProfile: [UInt8]?
    /// pHYs (PNG 11.3.5.3): pixel size or aspect ratio.
    public var physicalDimensions: PNGPhysicalDimensions?
    /// sBIT (PNG 11.3.3.4): significant bits per stored channel (1 to 4 values, as in the chunk).
    public var significantBits: [UInt8]?
    /// bKGD (PNG 11.3.5.1): the suggested background.
    public var background: PNGBackground?
    /// tIME (PNG 11.3.6.1): last modification time.
    public var lastModified: PNGTimestamp?
    /// tEXt, zTXt and iTXt (PNG 11.3.4) in file order.
    public var textEntries: [PNGTextEntry]
    /// eXIf (PNG 3rd edition 11.3.3.6): the raw EXIF bytes (a TIFF header and IFDs).
    public var exif: [UInt8]?
    /// The EXIF orientation found in eXIf, `.up` without one.
    public var orientation: Orientation

    /// Empty metadata.
    public init() {
        textEntries = []
        orientation = .up
    }
}
