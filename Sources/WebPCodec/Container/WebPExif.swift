import ImageCore

/// Reads the orientation of a WebP `EXIF` chunk (WebP container spec: raw Exif/TIFF data;
/// some writers keep the JPEG APP1 prefix "Exif\0\0", which is skipped).
enum WebPExif {
    static let jpegPrefix: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]

    /// The orientation tag's value, or nil when absent or malformed.
    static func orientation(_ payload: [UInt8]) -> Orientation? {
        payload.withUnsafeBytes { raw in
            if raw.count >= jpegPrefix.count, raw.starts(with: jpegPrefix) {
                return Orientation(exifTIFF: UnsafeRawBufferPointer(rebasing: raw[jpegPrefix.count...]))
            }
            return Orientation(exifTIFF: raw)
        }
    }
}
