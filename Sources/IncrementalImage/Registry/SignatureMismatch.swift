import ImageCore

/// Builds the error for input whose first bytes match no registered format, naming the bytes
/// seen, the signatures expected and, for a few well-known formats, what the input seems to be.
enum SignatureMismatch {
    /// Formats this library does not decode, recognised only to say so in the message.
    /// Each entry: the name, and the bytes at the given offsets (TIFF II/MM).
    private static let foreignFormats: [(name: String, parts: [(offset: Int, bytes: [UInt8])])] = [
        ("TIFF", [(0, [0x49, 0x49, 0x2A, 0x00])]),
        ("TIFF", [(0, [0x4D, 0x4D, 0x00, 0x2A])]),
    ]

    /// The `unsupported` error for `prefix`, the first bytes of the input.
    static func error(prefix: [UInt8], registry: ImageDecoderRegistry) -> ImageDecodingError {
        let expected = registry.factories.map { "\($0.formatName) (\(hex($0.signature)))" }.joined(separator: ", ")
        var message = "the input starts with \(hex(prefix)), which is not the signature of any supported format: expected \(expected)"
        if let name = foreignFormatName(prefix) { message += "; it looks like \(name), which this library does not decode" }
        return ImageDecodingError(.unsupported, at: 0, message)
    }

    /// The name of a known foreign format `prefix` starts with, if the prefix is long enough to tell.
    private static func foreignFormatName(_ prefix: [UInt8]) -> String? {
        for format in foreignFormats {
            let matches = format.parts.allSatisfy { part in
                part.offset + part.bytes.count <= prefix.count
                    && Array(prefix[part.offset..<(part.offset + part.bytes.count)]) == part.bytes
            }
            if matches { return format.name }
        }
        return nil
    }

    /// `89 50 4E 47`: bytes as upper-case hex pairs.
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { byte in
            let digits = String(byte, radix: 16, uppercase: true)
            return digits.count == 1 ? "0" + digits : digits
        }.joined(separator: " ")
    }
}
