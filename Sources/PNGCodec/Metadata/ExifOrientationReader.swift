import ImageCore

/// Finds the orientation tag (0x0112) in IFD0 of raw EXIF data (TIFF 6.0 section 2, EXIF 2.32 4.6.4).
///
/// Layout: byte order `II` (little-endian) or `MM` (big-endian), the number 42, the offset of
/// IFD0; an IFD is a 2-byte entry count then 12-byte entries: tag (2), type (2), count (4),
/// value or offset (4). Orientation is type 3 (SHORT), count 1, its value in the first two
/// bytes of the value field. Anything malformed simply yields nil.
enum ExifOrientationReader {
    /// The TIFF tag number of Orientation.
    static let orientationTag: UInt16 = 0x0112

    /// The orientation stored in `exif`, or nil.
    static func orientation(in exif: UnsafeRawBufferPointer) -> Orientation? {
        guard exif.count >= 8 else { return nil }
        let littleEndian: Bool
        switch (exif[0], exif[1]) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return nil
        }
        func u16(_ at: Int) -> UInt16? {
            guard at >= 0, at + 2 <= exif.count else { return nil }
            return littleEndian ? UInt16(exif[at]) | UInt16(exif[at + 1]) << 8 : UInt16(exif[at]) << 8 | UInt16(exif[at + 1])
        }
        func u32(_ at: Int) -> UInt32? {
            guard let high = u16(littleEndian ? at + 2 : at), let low = u16(littleEndian ? at : at + 2) else { return nil }
            return UInt32(high) << 16 | UInt32(low)
        }
        guard u16(2) == 42, let ifdOffset = u32(4), let ifd = Int(exactly: ifdOffset),
              let entries = u16(ifd) else { return nil }
        for entry in 0..<Int(entries) {
            let at = ifd + 2 + entry * 12
            guard let tag = u16(at) else { return nil }
            guard tag == orientationTag else { continue }
            guard u16(at + 2) == 3, u32(at + 4) == 1, let value = u16(at + 8),
                  let orientation = Orientation(rawValue: UInt8(truncatingIfNeeded: value)), value <= 8 else { return nil }
            return orientation
        }
        return nil
    }
}
