/// The eight bytes every PNG file starts with (PNG 5.2): `89 50 4E 47 0D 0A 1A 0A`.
///
/// The high bit catches 7-bit transports, `\r\n` and `\n` catch line-ending conversion,
/// `1A` stops DOS `type`. Each broken byte says something about how the file was damaged,
/// which the error message reports.
enum PNGSignature {
    /// The signature bytes.
    static let bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Whether `prefix` could still be the start of a PNG file (used for sniffing short input).
    static func matches(_ prefix: UnsafeRawBufferPointer) -> Bool {
        let count = min(prefix.count, bytes.count)
        for index in 0..<count where prefix[index] != bytes[index] { return false }
        return true
    }

    /// Whether `prefix` holds the whole signature.
    static func isPNG(_ prefix: [UInt8]) -> Bool {
        prefix.count >= bytes.count && Array(prefix.prefix(bytes.count)) == bytes
    }

    /// Explains which signature byte is wrong, for the error message.
    static func describeMismatch(_ found: UnsafeRawBufferPointer) -> (offset: Int, message: String) {
        for index in 0..<min(found.count, bytes.count) where found[index] != bytes[index] {
            let hint: String
            switch index {
            case 0: hint = found[0] == 0x09 ? " (the high bit was stripped by a 7-bit transfer)" : ""
            case 4, 5: hint = " (line endings were probably converted)"
            default: hint = ""
            }
            return (index, "not a PNG file: signature byte \(index) is 0x\(hex(found[index])), expected 0x\(hex(bytes[index]))\(hint)")
        }
        return (0, "not a PNG file")
    }
}

/// Two lower-case hex digits.
func hex(_ byte: UInt8) -> String {
    let digits = Array("0123456789abcdef")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
}
