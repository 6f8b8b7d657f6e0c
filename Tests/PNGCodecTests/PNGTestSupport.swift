import ImageCore
import PNGCodec
import TestSupport
import XCTest

/// Helpers shared by the PNG tests.
enum PNGTestSupport {
    /// Every PNG entry of the corpus manifest.
    static func corpusEntries() throws -> [CorpusManifest.Entry] {
        try CorpusManifest.load().files.filter(\.isPNG)
    }

    /// Entries with `expect: decode`.
    static func decodableEntries() throws -> [CorpusManifest.Entry] {
        try corpusEntries().filter { $0.expect == "decode" }
    }

    /// The pixels of `image` in the reference's format: `rgba8`, or `rgba16be` for 16-bit sources
    /// (corpus README: gray → R = G = B, missing alpha → maximum).
    static func referencePixels(_ image: Image, referenceFormat: String?) -> [UInt8] {
        image.converted(to: referenceFormat == "rgba16be" ? .rgba16 : .rgba8).pixels
    }

    /// Feeds `pieces` one after another and finishes.
    static func decode(_ pieces: [ArraySlice<UInt8>], options: DecodingOptions = DecodingOptions()) throws -> Image {
        let decoder = PNGDecoder(options: options)
        for piece in pieces { try decoder.feed(piece) }
        return try decoder.finish()
    }

    /// Decodes a whole file at once.
    static func decode(_ bytes: [UInt8], options: DecodingOptions = DecodingOptions()) throws -> Image {
        try PNGDecoder(options: options).decode(bytes)
    }

    /// The error kind `body` throws, or nil if it does not throw.
    static func errorKind<T>(_ body: () throws -> T) -> ImageDecodingError.Kind? {
        do {
            _ = try body()
            return nil
        } catch let error as ImageDecodingError {
            return error.kind
        } catch {
            return .internal
        }
    }
}
