import ImageCore

/// Reads the orientation (TIFF tag 0x0112) from an Exif APP1 payload: "Exif\0\0", then a TIFF
/// header in either byte order ("II" little-endian or "MM" big-endian, 42, offset of IFD0), then
/// IFD0's 12-byte entries (Exif 2.3 §4.5, TIFF 6.0 §2).
///
/// Anything malformed yields nil: a broken Exif block must not stop the picture from decoding.
enum ExifOrientationParser {
    /// The orientation in `payload` (the APP1 bytes after the length), or nil.
    static func orientation(in payload: UnsafeRawBufferPointer) -> Orientation? {
        let exifHeader: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]   // "Exif\0\0"
        guard payload.count >= 6 + 8, payload.prefix(6).elementsEqual(exifHeader) else { return nil }
        let tiff = UnsafeRawBufferPointer(rebasing: payload[6...])
        let littleEndian: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= tiff.count else { return nil }
            return littleEndian ? Int(tiff[at]) | Int(tiff[at + 1]) << 8 : Int(tiff[at]) << 8 | Int(tiff[at + 1])
        }
        func u32(_ at: Int) -> Int? {
            guard let a = u16(at), let b = u16(at + 2) else { return nil }
            return littleEndian ? a | b << 16 : a << 16 | b
        }
        guard u16(2) == 42, let ifd = u32(4), let entryCount = u16(ifd) else { return nil }
        for entry in 0..<entryCount {
            let at = ifd + 2 + entry * 12
            guard let tag = u16(at) else { return nil }
            guard tag == 0x0112 else { continue }
            // Type SHORT (3), count 1: the value sits in the first two bytes of the value field.
            guard u16(at + 2) == 3, u32(at + 4) == 1, let value = u16(at + 8), value <= 255 else { return nil }
            return Orientation(rawValue: UInt8(value))
        }
        return nil
    }
}
