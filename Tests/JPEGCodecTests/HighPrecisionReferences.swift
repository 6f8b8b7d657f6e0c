import Foundation
import ImageCore
import JPEGCodec
import TestSupport

/// `TestImages/jpeg-hibit/references.json`, made by `make_fixtures.py` beside it with
/// libjpeg-turbo 3 (imagecodecs, and its `hibit_tool` helper for scaled 12-bit decodes).
struct HighPrecisionReferences: Decodable {
    struct Picture: Decodable {
        var width: Int
        var height: Int
        var channels: Int
        var sha256: String
    }

    struct Scaled: Decodable {
        var path: String
        var scale: Int
        var width: Int
        var height: Int
        var sha256: String
    }

    /// A 12-bit progressive file cut short: its first `cut` bytes, with EOI appended when
    /// `eoiAppended` (cuts at a scan boundary), decoded at 1/`scale`.
    struct Cut: Decodable {
        var path: String
        var cut: Int
        /// "boundary" (just before an SOS marker), "mid" (inside a scan's data) or "whole".
        var kind: String
        var eoiAppended: Bool
        var scale: Int
        var width: Int
        var height: Int
        var channels: Int
        var sha256: String
    }

    var files: [String: Picture]
    var scaled: [Scaled]
    var cuts: [Cut]

    /// The bytes `cut` describes.
    static func bytes(_ cut: Cut) throws -> [UInt8] {
        Array(try bytes(cut.path)[..<cut.cut]) + (cut.eoiAppended ? [0xFF, 0xD9] : [])
    }

    static func load() throws -> HighPrecisionReferences {
        try JSONDecoder().decode(HighPrecisionReferences.self, from: Data(try Fixtures.bytes("jpeg-hibit/references.json")))
    }

    static func bytes(_ name: String) throws -> [UInt8] { try Fixtures.bytes("jpeg-hibit/" + name) }

    /// Names of files that are neither cut short nor damaged, and that this decoder supports.
    var intactFiles: [String] {
        files.keys.filter { !$0.contains("truncated") && !$0.contains("damaged") && !$0.contains("unsupported") }.sorted()
    }

    /// Whether `image` is `reference`'s picture.
    static func matches(_ image: Image, _ reference: Picture) -> Bool {
        image.width == reference.width && image.height == reference.height
            && image.format.channelCount == reference.channels && Digest.sha256(image.pixels) == reference.sha256
    }
}
