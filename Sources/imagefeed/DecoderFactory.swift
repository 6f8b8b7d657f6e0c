import ImageCore
import PNGCodec

/// Picks the decoder for a file from its first bytes.
///
/// To add a format, add a case that recognises its signature and returns its decoder, e.g.
/// for JPEG: `if prefix.starts(with: [0xFF, 0xD8]) { return JPEGDecoder(options: options) }`.
enum DecoderFactory {
    /// Bytes needed to recognise every supported format (the PNG signature is the longest).
    static let sniffLength = 8

    /// A decoder for the file starting with `prefix`, or an `unsupported` / `invalidSignature` error.
    static func decoder(for prefix: [UInt8], options: DecodingOptions) throws -> any IncrementalImageDecoder {
        if PNGDecoder.matchesSignature(prefix) { return PNGDecoder(options: options) }
        if prefix.starts(with: [0xFF, 0xD8]) {
            throw ImageDecodingError(.unsupported, at: 0, "unsupported format: JPEG (no JPEG decoder in this build yet)")
        }
        throw ImageDecodingError(.invalidSignature, at: 0, "unsupported format: neither a PNG nor a JPEG signature")
    }
}
