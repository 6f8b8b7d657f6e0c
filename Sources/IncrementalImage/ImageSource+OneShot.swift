import Foundation
import ImageCore

extension ImageSource {
    /// Chunk size for reading files: large enough that per-call overhead vanishes, small enough to stay in cache.
    static let fileChunkSize = 1 << 18

    /// Decodes a whole encoded image held in memory.
    public static func decode(_ bytes: [UInt8], options: DecodingOptions = DecodingOptions(),
                              registry: ImageDecoderRegistry = .standard) throws -> Image {
        let source = ImageSource(options: options, registry: registry)
        try source.feed(bytes)
        return try source.finish()
    }

    /// Decodes a whole encoded image held in `Data`.
    public static func decode(_ data: Data, options: DecodingOptions = DecodingOptions(),
                              registry: ImageDecoderRegistry = .standard) throws -> Image {
        let source = ImageSource(options: options, registry: registry)
        try source.feed(data)
        return try source.finish()
    }

    /// Decodes a local image file, reading it in chunks (the file is never held in memory whole).
    ///
    /// - Throws: `unsupported` for a URL that is not a file URL, the file system's error if the
    ///   file cannot be read, else whatever decoding throws.
    public static func decode(contentsOf url: URL, options: DecodingOptions = DecodingOptions(),
                              registry: ImageDecoderRegistry = .standard) throws -> Image {
        guard url.isFileURL else {
            throw ImageDecodingError(.unsupported, at: nil,
                                     "decode(contentsOf:) reads local files; \(url.absoluteString) is not a file URL (use ImageLoader for http and https)")
        }
        let handle = try FileHandle(forReadingFrom: url)
        defer { handle.closeFile() }
        let source = ImageSource(options: options, registry: registry)
        // readData(ofLength:) rather than read(upToCount:), which needs macOS 10.15.4 / iOS 13.4.
        while case let chunk = handle.readData(ofLength: fileChunkSize), !chunk.isEmpty {
            try source.feed(chunk)
        }
        return try source.finish()
    }
}
