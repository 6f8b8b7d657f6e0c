/// The Image Descriptor (GIF89a section 20): where one frame sits and how its data is laid out.
///
/// Layout after the `2C` separator: left, top, width, height (u16 LE each), packed flags.
/// Flags: bit 7 local colour table present, bit 6 interlaced, bits 0–2 table size as
/// `2^(n+1)` entries. Example: `01 00 02 00 03 00 04 00 40` is a 3×4 interlaced frame at (1, 2).
struct GIFImageDescriptor: Equatable {
    /// Bytes after the separator.
    static let size = 9

    /// Left edge on the canvas (may lie outside it: the frame is clipped).
    let left: Int
    /// Top edge on the canvas.
    let top: Int
    /// Frame width in pixels (0 is accepted: the frame draws nothing).
    let width: Int
    /// Frame height in pixels.
    let height: Int
    /// Rows stored in the 4-pass order of GIF89a Appendix E.
    let isInterlaced: Bool
    /// Entries in the local colour table, 0 when the frame uses the global one.
    let localColorCount: Int

    /// Reads the 9 bytes after the separator (the caller checked the length).
    init(_ bytes: UnsafeRawBufferPointer) {
        left = GIFFields.uint16(bytes, at: 0)
        top = GIFFields.uint16(bytes, at: 2)
        width = GIFFields.uint16(bytes, at: 4)
        height = GIFFields.uint16(bytes, at: 6)
        isInterlaced = bytes[8] & 0x40 != 0
        localColorCount = GIFFields.colorTableCount(bytes[8])
    }
}
