/// How component samples become output pixels, picked once per image from the colour space and
/// the requested output (libjpeg's jdcolor.c, and djpeg's PPM writer for CMYK).
enum ColorConversion: Equatable {
    /// One component → gray8.
    case gray
    /// YCbCr → rgb8 with ``YCbCrTables``.
    case yCbCrToRGB
    /// RGB stored as is → rgb8.
    case rgb
    /// CMYK → rgb8 as djpeg writes it: R = round(C·K / 255) on the stored values.
    case cmykToRGB
    /// YCCK → CMYK (inverted YCbCr → RGB, K kept) → rgb8 as above.
    case ycckToRGB
    /// CMYK → cmyk8 as stored.
    case cmyk
    /// YCCK → cmyk8.
    case ycckToCMYK

    /// Output bytes per pixel.
    var bytesPerPixel: Int {
        switch self {
        case .gray: return 1
        case .yCbCrToRGB, .rgb, .cmykToRGB, .ycckToRGB: return 3
        case .cmyk, .ycckToCMYK: return 4
        }
    }
}
