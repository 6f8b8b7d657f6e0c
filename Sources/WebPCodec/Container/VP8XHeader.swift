/// The `VP8X` chunk (WebP container spec, "Extended File Format"): feature flags and the canvas size.
///
/// Layout (10 bytes): flags byte `Rsv(2) I L E X A R` from the high bit down (ICC, alpha, Exif,
/// XMP, animation), 3 reserved bytes, canvas width - 1 (24 bits LE), canvas height - 1 (24 bits LE).
struct VP8XHeader: Equatable {
    /// The payload size the spec fixes (libwebp rejects any other).
    static let size = 10

    let hasICCProfile: Bool
    let hasAlpha: Bool
    let hasExif: Bool
    let isAnimated: Bool
    let canvasWidth: Int
    let canvasHeight: Int

    /// Parses the 10-byte payload.
    init(_ payload: UnsafeRawBufferPointer) {
        let flags = payload[0]
        hasICCProfile = flags & 0x20 != 0
        hasAlpha = flags & 0x10 != 0
        hasExif = flags & 0x08 != 0
        isAnimated = flags & 0x02 != 0
        canvasWidth = littleEndian24(payload, 4) + 1
        canvasHeight = littleEndian24(payload, 7) + 1
    }
}
