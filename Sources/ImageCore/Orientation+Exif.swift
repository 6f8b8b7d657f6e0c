extension Orientation {
    /// Reads the orientation tag (0x0112) from IFD0 of raw Exif/TIFF data (TIFF 6.0 section 2,
    /// Exif 2.32 4.6.4), as found in a PNG `eXIf` chunk or after "Exif\0\0" in a JPEG APP1.
    ///
    /// Layout: byte order `II` (little-endian) or `MM` (big-endian), the number 42, the offset of
    /// IFD0; an IFD is a 2-byte entry count then 12-byte entries: tag (2), type (2), count (4),
    /// value or offset (4). Orientation is type 3 (SHORT), count 1, its value in the first two
    /// bytes of the value field. Anything malformed yields nil: a broken Exif block must not stop
    /// the picture from decoding.
    public init?(exifTIFF tiff: UnsafeRawBufferPointer) {
        guard tiff.count >= 8 else { return nil }
        let littleEndian: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return nil
        }
        func u16(_ at: Int) -> UInt16? {
            guard at >= 0, at + 2 <= tiff.count else { return nil }
            return littleEndian ? UInt16(tiff[at]) | UInt16(tiff[at + 1]) << 8 : UInt16(tiff[at]) << 8 | UInt16(tiff[at + 1])
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
            guard tag == 0x0112 else { continue }
            guard u16(at + 2) == 3, u32(at + 4) == 1, let value = u16(at + 8), value <= 8,
                  let orientation = Orientation(rawValue: UInt8(truncatingIfNeeded: value)) else { return nil }
            self = orientation
            return
        }
        return nil
    }
}
