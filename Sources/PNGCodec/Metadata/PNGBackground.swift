/// bKGD (PNG 11.3.5.1): the background colour suggested by the file, in stored sample values.
public enum PNGBackground: Sendable, Hashable {
    /// Gray images: a gray level at the image's bit depth.
    case gray(UInt16)
    /// Truecolour images: red, green, blue at the image's bit depth.
    case rgb(UInt16, UInt16, UInt16)
    /// Palette images: a palette index.
    case paletteIndex(UInt8)
}
