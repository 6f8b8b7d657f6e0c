import Foundation
import ImageCore
import JPEGCodec
import TestSupport

/// Selections of the corpus manifest and the extra references used by the JPEG tests.
enum JPEGCorpus {
    /// Sequential (not progressive) JPEGs that must decode: the non-optional ones plus CMYK/YCCK,
    /// which this decoder supports (arithmetic and 12-bit stay out).
    static func sequentialDecodeEntries() throws -> [CorpusManifest.Entry] {
        try CorpusManifest.load().files.filter { entry in
            entry.isJPEG && entry.expect == "decode" && !entry.isProgressive
                && (entry.optional == nil || entry.optional?.hasPrefix("CMYK") == true)
        }
    }

    /// The manifest entry for `path`.
    static func entry(_ path: String) throws -> CorpusManifest.Entry {
        guard let found = try CorpusManifest.load().files.first(where: { $0.path == path }) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: path])
        }
        return found
    }

    /// The bytes of corpus file `path`.
    static func bytes(_ path: String) throws -> [UInt8] { try Fixtures.bytes("corpus/" + path) }

    /// Feeds `bytes` in the given pieces and finishes.
    static func decode(_ pieces: [ArraySlice<UInt8>], options: DecodingOptions = DecodingOptions()) throws -> Image {
        let decoder = JPEGDecoder(options: options)
        for piece in pieces { try decoder.feed(piece) }
        return try decoder.finish()
    }
}

/// `TestImages/jpeg-extra/references.json`, made by `make_references.py` beside it with djpeg.
struct ExtraJPEGReferences: Decodable {
    /// `djpeg -scale 1/scale` of a corpus file.
    struct Scaled: Decodable {
        var path: String
        var scale: Int
        var width: Int
        var height: Int
        var sha256: String
    }

    /// A corpus file after a deterministic edit, and djpeg's picture of it.
    struct Damaged: Decodable {
        struct Edit: Decodable {
            var set: [Int]?
            var delete: [Int]?
            var truncate: Int?
        }
        var path: String
        var description: String
        var edit: Edit
        var width: Int
        var height: Int
        var sha256: String

        /// Applies the edit to the file's bytes.
        func apply(to original: [UInt8]) -> [UInt8] {
            var bytes = original
            if let set = edit.set { bytes[set[0]] = UInt8(set[1]) }
            if let delete = edit.delete { bytes.removeSubrange(delete[0]..<(delete[0] + delete[1])) }
            if let truncate = edit.truncate { bytes.removeSubrange(truncate...) }
            return bytes
        }
    }

    var scaled: [Scaled]
    var damaged: [Damaged]

    /// Loads the JSON.
    static func load() throws -> ExtraJPEGReferences {
        try JSONDecoder().decode(ExtraJPEGReferences.self, from: Data(contentsOf: Fixtures.url("jpeg-extra/references.json")))
    }
}
