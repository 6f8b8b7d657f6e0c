import ImageCore

/// The Graphic Control Extension (GIF89a section 23): delay, disposal and transparency of the
/// one frame that follows it.
///
/// Data sub-block: packed flags (bits 2–4 disposal method, bit 0 transparency present), delay in
/// centiseconds (u16 LE), transparent colour index. Example: `09 0A 00 03` is disposal 2,
/// transparent index 3, shown for 0.1 s.
struct GIFGraphicControl: Equatable {
    /// Bytes of the data sub-block the spec defines.
    static let size = 4

    /// The disposal as browsers apply it: 2 clears the frame's rectangle to transparent, 3 restores
    /// the previous canvas; 0, 1 and the undefined values 4–7 leave the frame in place (Wuffs maps
    /// 4–7 to "none" too).
    let disposal: FrameDisposal
    /// Delay in hundredths of a second.
    let delayCentiseconds: Int
    /// The colour index that stays transparent, if any.
    let transparentIndex: Int?

    /// The defaults for a frame without a Graphic Control Extension.
    static let absent = GIFGraphicControl(disposal: .none, delayCentiseconds: 0, transparentIndex: nil)

    init(disposal: FrameDisposal, delayCentiseconds: Int, transparentIndex: Int?) {
        self.disposal = disposal
        self.delayCentiseconds = delayCentiseconds
        self.transparentIndex = transparentIndex
    }

    /// Reads the first 4 bytes of the extension's data sub-block (the caller checked the length).
    init(_ bytes: UnsafeRawBufferPointer) {
        let flags = bytes[0]
        switch (flags >> 2) & 0x07 {
        case 2: disposal = .background
        case 3: disposal = .previous
        default: disposal = .none
        }
        delayCentiseconds = GIFFields.uint16(bytes, at: 1)
        transparentIndex = flags & 0x01 != 0 ? Int(bytes[3]) : nil
    }
}
