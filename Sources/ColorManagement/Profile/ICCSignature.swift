/// A four-character ICC signature (tag, tag type, colour space, device class), e.g. `rXYZ`.
public struct ICCSignature: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The four bytes, big-endian.
    public var rawValue: UInt32

    /// Wraps a stored value.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Makes a signature from four ASCII characters (shorter strings are padded with spaces).
    public init(_ text: StaticString) {
        var value: UInt32 = 0
        var length = 0
        text.withUTF8Buffer { buffer in
            for byte in buffer.prefix(4) { value = value << 8 | UInt32(byte); length += 1 }
        }
        while length < 4 { value = value << 8 | 0x20; length += 1 }
        rawValue = value
    }

    /// The four characters (non-printable bytes as `?`).
    public var description: String {
        String((0..<4).map { index -> Character in
            let byte = UInt8(truncatingIfNeeded: rawValue >> UInt32(24 - 8 * index))
            return (0x20...0x7E).contains(byte) ? Character(Unicode.Scalar(byte)) : "?"
        })
    }
}

extension ICCSignature {
    // Tags (ICC.1 9.2).
    static let redColorant = ICCSignature("rXYZ")
    static let greenColorant = ICCSignature("gXYZ")
    static let blueColorant = ICCSignature("bXYZ")
    static let redTRC = ICCSignature("rTRC")
    static let greenTRC = ICCSignature("gTRC")
    static let blueTRC = ICCSignature("bTRC")
    static let grayTRC = ICCSignature("kTRC")
    static let mediaWhitePoint = ICCSignature("wtpt")
    static let chromaticAdaptation = ICCSignature("chad")
    static let aToB0 = ICCSignature("A2B0")
    static let aToB1 = ICCSignature("A2B1")
    static let aToB2 = ICCSignature("A2B2")
    static let bToA0 = ICCSignature("B2A0")
    static let bToA1 = ICCSignature("B2A1")
    // Tag types (ICC.1 10).
    static let xyzType = ICCSignature("XYZ ")
    static let curveType = ICCSignature("curv")
    static let parametricCurveType = ICCSignature("para")
    static let s15Fixed16ArrayType = ICCSignature("sf32")
    static let lut8Type = ICCSignature("mft1")
    static let lut16Type = ICCSignature("mft2")
    static let lutAToBType = ICCSignature("mAB ")
    static let lutBToAType = ICCSignature("mBA ")
    static let profileFileSignature = ICCSignature("acsp")
}
