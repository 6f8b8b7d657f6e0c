/// A RIFF FourCC as WebP uses them (WebP container spec, "Extended File Format").
struct WebPChunkTag: Hashable, CustomStringConvertible {
    /// The four bytes, first byte in the lowest bits.
    let value: UInt32

    init(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) {
        value = UInt32(a) | UInt32(b) << 8 | UInt32(c) << 16 | UInt32(d) << 24
    }

    init(_ text: StaticString) {
        let bytes = text.withUTF8Buffer { Array($0) }
        self.init(bytes[0], bytes[1], bytes[2], bytes[3])
    }

    static let riff = WebPChunkTag("RIFF")
    static let webp = WebPChunkTag("WEBP")
    /// Lossy bitstream (RFC 6386). Note the space.
    static let vp8 = WebPChunkTag("VP8 ")
    /// Lossless bitstream (RFC 9649).
    static let vp8l = WebPChunkTag("VP8L")
    /// Extended header: feature flags and canvas size.
    static let vp8x = WebPChunkTag("VP8X")
    /// Alpha plane of a lossy image.
    static let alph = WebPChunkTag("ALPH")
    /// Animation parameters: background colour, loop count.
    static let anim = WebPChunkTag("ANIM")
    /// One animation frame.
    static let anmf = WebPChunkTag("ANMF")
    /// ICC profile.
    static let iccp = WebPChunkTag("ICCP")
    /// Exif metadata.
    static let exif = WebPChunkTag("EXIF")

    /// The FourCC as text, unprintable bytes as `?`.
    var description: String {
        String((0..<4).map { shift -> Character in
            let byte = UInt8(truncatingIfNeeded: value >> UInt32(8 * shift))
            return (0x20..<0x7F).contains(byte) ? Character(Unicode.Scalar(byte)) : "?"
        })
    }
}
