import ImageCore
import IncrementalImage

/// Picks the decoder for a file from its first bytes, using the library's one table of formats
/// (`ImageDecoderRegistry.standard`: PNG signature → `PNGDecoder`, JPEG SOI `FF D8` → the JPEG
/// decoder once the registry has one). A format joins this command by joining that registry.
enum DecoderFactory {
    /// Bytes needed to recognise every supported format (the PNG signature is the longest).
    static var sniffLength: Int { ImageDecoderRegistry.standard.factories.map(\.signature.count).max() ?? 8 }

    /// A decoder for the file starting with `prefix`, or an `unsupported` / `invalidSignature` error.
    static func decoder(for prefix: [UInt8], options: DecodingOptions) throws -> any IncrementalImageDecoder {
        for factory in ImageDecoderRegistry.standard.factories where prefix.starts(with: factory.signature) {
            guard let makeDecoder = factory.makeDecoder else {
                throw ImageDecodingError(.unsupported, at: 0,
                                         "unsupported format: \(factory.formatName) (no \(factory.formatName) decoder in this build yet)")
            }
            return makeDecoder(options)
        }
        let known = ImageDecoderRegistry.standard.factories.map(\.formatName).joined(separator: " or ")
        throw ImageDecodingError(.invalidSignature, at: 0, "unsupported format: the file does not start like \(known)")
    }
}
