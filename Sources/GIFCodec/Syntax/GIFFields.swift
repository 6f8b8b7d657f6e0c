/// Field readers shared by the GIF blocks: unsigned 16-bit little-endian numbers (GIF89a
/// section 4) and the packed "colour table present / size" bits of sections 18 and 20.
enum GIFFields {
    /// The u16 at `offset` (low byte first): `0A 00` is 10.
    static func uint16(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Int {
        Int(bytes[offset]) | Int(bytes[offset + 1]) << 8
    }

    /// Entries of the colour table a packed field announces: bit 7 says there is one, bits 0–2
    /// give its size as `2^(n+1)` (`0x81` → 4 entries); 0 when there is none.
    static func colorTableCount(_ flags: UInt8) -> Int {
        flags & 0x80 != 0 ? 2 << Int(flags & 0x07) : 0
    }
}
