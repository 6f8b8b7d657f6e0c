import ImageCore

/// The small JPEG a camera stores in its Exif block (IFD1, TIFF 6.0 / Exif 2.32 4.5.4), used as
/// a stand-in for the rows of a sequential JPEG that have not arrived yet.
///
/// IFD1 is the IFD that IFD0's "next IFD" offset points to; its `JPEGInterchangeFormat` (0x0201)
/// tag holds the thumbnail's offset from the TIFF header and `JPEGInterchangeFormatLength`
/// (0x0202) its length, both LONG (type 4) or SHORT (type 3). Anything malformed yields nil.
enum ExifThumbnail {
    /// Largest thumbnail decoded: what fits in one APP1 segment, and at most 1 Mpix.
    static let maximumPixels = 1 << 20

    /// The byte range of the embedded JPEG within `payload` (an APP1 body starting "Exif\0\0").
    static func jpegRange(inAPP1 payload: UnsafeRawBufferPointer) -> Range<Int>? {
        guard payload.count >= 14, payload.prefix(6).elementsEqual([0x45, 0x78, 0x69, 0x66, 0, 0]) else { return nil }
        let tiffStart = 6
        let tiff = UnsafeRawBufferPointer(rebasing: payload[tiffStart...])
        let littleEndian: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at <= tiff.count - 2 else { return nil }
            return littleEndian ? Int(tiff[at]) | Int(tiff[at + 1]) << 8 : Int(tiff[at]) << 8 | Int(tiff[at + 1])
        }
        func u32(_ at: Int) -> Int? {
            guard let first = u16(at), let second = u16(at + 2) else { return nil }
            return littleEndian ? second << 16 | first : first << 16 | second
        }
        guard u16(2) == 42, let ifd0 = u32(4), let count0 = u16(ifd0), let ifd1 = u32(ifd0 + 2 + count0 * 12),
              ifd1 > 0, let count1 = u16(ifd1) else { return nil }
        var offset: Int?, length: Int?
        for entry in 0..<count1 {
            let at = ifd1 + 2 + entry * 12
            guard let tag = u16(at), let type = u16(at + 2) else { return nil }
            let value = type == 3 ? u16(at + 8) : (type == 4 ? u32(at + 8) : nil)
            if tag == 0x0201 { offset = value }
            if tag == 0x0202 { length = value }
        }
        guard let offset, let length, length >= 4, offset > 0, offset <= tiff.count - length else { return nil }
        let start = tiffStart + offset
        // Only a JPEG stream (SOI) is a thumbnail this decoder can show.
        guard payload[start] == 0xFF, payload[start + 1] == 0xD8 else { return nil }
        return start..<(start + length)
    }

    /// Decodes the thumbnail at `range` of `payload` in `format` (gray8 or rgb8), or nil if it
    /// does not decode, is too large, or cannot be shown in that format.
    static func decode(_ payload: UnsafeRawBufferPointer, range: Range<Int>, format: PixelFormat) -> Image? {
        guard format == .gray8 || format == .rgb8 else { return nil }
        var limits = Limits()
        limits.maxPixels = maximumPixels
        let decoder = JPEGDecoder(options: DecodingOptions(limits: limits, preferredFormat: format))
        guard let image = try? decoder.decode(Array(payload[range])), image.format == format else { return nil }
        return image
    }

    /// Fills rows `rows` of `canvas` (`width` × `height`, `thumbnail.format`) with the thumbnail
    /// stretched to the whole picture, nearest sample (cheap, and only shown until rows arrive).
    static func fill(_ canvas: UnsafeMutablePointer<UInt8>, width: Int, height: Int, rows: Range<Int>, from thumbnail: Image) {
        let channels = thumbnail.format.bytesPerPixel
        let sourceColumns = (0..<width).map { min(thumbnail.width - 1, $0 * thumbnail.width / max(width, 1)) * channels }
        thumbnail.pixels.withUnsafeBufferPointer { source in
            guard let base = source.baseAddress else { return }
            for y in rows {
                let sourceRow = base + min(thumbnail.height - 1, y * thumbnail.height / max(height, 1)) * thumbnail.bytesPerRow
                var out = canvas + y * width * channels
                for column in sourceColumns {
                    for channel in 0..<channels { out[channel] = sourceRow[column + channel] }
                    out += channels
                }
            }
        }
    }
}
