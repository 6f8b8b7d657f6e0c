import ImageCore

/// Netpbm PAM (P7) files: a text header, then the samples row by row, 16-bit ones big-endian.
///
/// ```
/// P7
/// WIDTH 3
/// HEIGHT 2
/// DEPTH 4
/// MAXVAL 255
/// TUPLTYPE RGB_ALPHA
/// ENDHDR
/// ```
enum PAMWriter {
    /// The whole file for `image`; `cmyk8` is written raw with TUPLTYPE CMYK. `maxValue` is the
    /// largest sample when the samples use fewer bits than their bytes hold (12-bit JPEG: 4095);
    /// by default 255 or 65535.
    static func encode(_ image: Image, maxValue: Int? = nil) -> [UInt8] {
        // Image pixels are already in PAM's order: rows top to bottom, 16-bit samples big-endian.
        header(for: image, maxValue: maxValue) + image.pixels
    }

    /// The text header for `image` (see ``encode(_:maxValue:)``); the file is this followed by
    /// `image.pixels` as they are.
    static func header(for image: Image, maxValue declaredMaxValue: Int? = nil) -> [UInt8] {
        let source = image
        let format = source.format
        let tupleType: String
        switch (format.isGray, format.hasAlpha) {
        case _ where format == .cmyk8: tupleType = "CMYK"
        case (true, false): tupleType = "GRAYSCALE"
        case (true, true): tupleType = "GRAYSCALE_ALPHA"
        case (false, false): tupleType = "RGB"
        case (false, true): tupleType = "RGB_ALPHA"
        }
        let maxValue = declaredMaxValue ?? (format.bytesPerSample == 2 ? 65535 : 255)
        let header = "P7\nWIDTH \(source.width)\nHEIGHT \(source.height)\nDEPTH \(format.channelCount)\n"
            + "MAXVAL \(maxValue)\nTUPLTYPE \(tupleType)\nENDHDR\n"
        return Array(header.utf8)
    }
}
