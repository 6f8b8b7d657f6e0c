/// The Logical Screen Descriptor (GIF89a section 18): the canvas every frame is drawn on.
///
/// Layout after the 6-byte signature: width (u16 LE), height (u16 LE), packed flags, background
/// colour index, pixel aspect ratio. Flags: bit 7 global colour table present, bits 0–2 its size
/// as `2^(n+1)` entries. Example: `0A 00 05 00 F1 00 00` is a 10×5 canvas with a 4-entry table.
struct GIFScreenDescriptor: Equatable {
    /// Bytes of the descriptor itself.
    static let size = 7

    /// Canvas width in pixels.
    let width: Int
    /// Canvas height in pixels.
    let height: Int
    /// Entries in the global colour table, 0 when there is none.
    let globalColorCount: Int

    /// Reads the 7 descriptor bytes at the start of `bytes` (the caller checked the length).
    init(_ bytes: UnsafeRawBufferPointer) {
        width = GIFFields.uint16(bytes, at: 0)
        height = GIFFields.uint16(bytes, at: 2)
        globalColorCount = GIFFields.colorTableCount(bytes[4])
    }
}
