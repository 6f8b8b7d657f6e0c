import ImageCore

extension ImageDecoderFactory {
    /// PNG: the 8-byte signature of PNG 5.2 (`89 50 4E 47 0D 0A 1A 0A`).
    public static let png = ImageDecoderFactory(
        formatName: "PNG", signature: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], supportsScaling: false,
        makeDecoder: { PNGDecoder(options: $0) })

    /// JPEG: the SOI marker `FF D8` (T.81 B.1.1.3, B.2.1) that starts every JPEG stream.
    public static let jpeg = ImageDecoderFactory(
        formatName: "JPEG", signature: [0xFF, 0xD8], supportsScaling: true,
        makeDecoder: { JPEGDecoder(options: $0) })

    /// GIF: `GIF8` (GIF89a section 17); the decoder then checks the rest of `GIF87a` / `GIF89a`.
    public static let gif = ImageDecoderFactory(
        formatName: "GIF", signature: Array("GIF8".utf8), supportsScaling: false,
        makeDecoder: { GIFDecoder(options: $0) })

    /// WebP: `RIFF`, the 4-byte RIFF size (any value), `WEBP` (WebP container spec, "RIFF Header").
    public static let webp = ImageDecoderFactory(
        formatName: "WebP", signature: Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBP".utf8),
        signatureWildcards: [4, 5, 6, 7], supportsScaling: false,
        makeDecoder: { WebPDecoder(options: $0) })
}
