/// A four-letter chunk type (PNG 5.3), kept as its big-endian 32-bit value.
///
/// Bit 5 of each letter is a property bit (PNG 5.4): lowercase first letter = ancillary,
/// lowercase second = private, third must be uppercase (reserved), lowercase fourth = safe to copy.
struct ChunkType: Hashable, CustomStringConvertible {
    /// The four bytes as one big-endian number, e.g. `IHDR` = 0x49484452.
    let rawValue: UInt32

    init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Makes a type from its four ASCII letters.
    init(_ name: StaticString) {
        var value: UInt32 = 0
        name.withUTF8Buffer { for byte in $0 { value = value << 8 | UInt32(byte) } }
        rawValue = value
    }

    /// Every byte is an ASCII letter (PNG 5.3: "restricted to ... A-Z and a-z").
    var isValid: Bool {
        for shift in stride(from: 24, through: 0, by: -8) {
            let byte = UInt8(truncatingIfNeeded: rawValue >> UInt32(shift))
            let isUpper = byte >= 0x41 && byte <= 0x5A
            let isLower = byte >= 0x61 && byte <= 0x7A
            if !(isUpper || isLower) { return false }
        }
        return true
    }

    /// Ancillary bit (bit 5 of the first byte) clear: the image cannot be shown without understanding it.
    var isCritical: Bool { rawValue & 0x2000_0000 == 0 }

    /// The four letters, or hex for bytes that are not printable.
    var description: String {
        var text = ""
        for shift in stride(from: 24, through: 0, by: -8) {
            let byte = UInt8(truncatingIfNeeded: rawValue >> UInt32(shift))
            text += (0x20...0x7E).contains(byte) ? String(UnicodeScalar(byte)) : "\\x" + hex(byte)
        }
        return text
    }

    static let IHDR = ChunkType("IHDR")
    static let PLTE = ChunkType("PLTE")
    static let IDAT = ChunkType("IDAT")
    static let IEND = ChunkType("IEND")
    static let tRNS = ChunkType("tRNS")
    static let gAMA = ChunkType("gAMA")
    static let cHRM = ChunkType("cHRM")
    static let sRGB = ChunkType("sRGB")
    static let iCCP = ChunkType("iCCP")
    static let cICP = ChunkType("cICP")
    static let sBIT = ChunkType("sBIT")
    static let bKGD = ChunkType("bKGD")
    static let pHYs = ChunkType("pHYs")
    static let tIME = ChunkType("tIME")
    static let tEXt = ChunkType("tEXt")
    static let zTXt = ChunkType("zTXt")
    static let iTXt = ChunkType("iTXt")
    static let eXIf = ChunkType("eXIf")
}
