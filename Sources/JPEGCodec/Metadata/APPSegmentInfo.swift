import ImageCore

/// Recognises the APP segments that change how pixels are interpreted (libjpeg's
/// `examine_app0` / `examine_app14`) or shown (Exif orientation).
enum APPSegmentInfo {
    /// APP1 "Exif\0\0" followed by TIFF data: its orientation tag, or nil (also for a broken block).
    static func exifOrientation(_ payload: UnsafeRawBufferPointer) -> Orientation? {
        guard payload.count >= 6, payload.prefix(6).elementsEqual([0x45, 0x78, 0x69, 0x66, 0, 0]) else { return nil }
        return Orientation(exifTIFF: UnsafeRawBufferPointer(rebasing: payload[6...]))
    }

    /// APP0 "JFIF\0": the image is YCbCr (or gray).
    static func isJFIF(_ payload: UnsafeRawBufferPointer) -> Bool {
        payload.count >= 14 && payload.prefix(5).elementsEqual([0x4A, 0x46, 0x49, 0x46, 0])
    }

    /// APP14 "Adobe": returns the colour transform byte (0 = none: RGB or CMYK, 1 = YCbCr, 2 = YCCK).
    static func adobeTransform(_ payload: UnsafeRawBufferPointer) -> UInt8? {
        guard payload.count >= 12, payload.prefix(5).elementsEqual([0x41, 0x64, 0x6F, 0x62, 0x65]) else { return nil }
        return payload[11]
    }
}
