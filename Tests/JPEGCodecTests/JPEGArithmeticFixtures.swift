import Foundation
import ImageCore
import JPEGCodec
import TestSupport

/// `TestImages/jpeg-arith/references.json`, made by `make_fixtures.py` beside it with cjpeg,
/// jpegtran and djpeg (libjpeg-turbo 2.1.5 with arithmetic coding).
struct JPEGArithmeticFixtures: Decodable {
    /// A picture djpeg made: size and SHA-256 of the raw pixels.
    struct Picture: Decodable {
        var width: Int
        var height: Int
        var sha256: String
    }

    /// An arithmetic-coded file and djpeg's pictures of it at each scale.
    struct Fixture: Decodable {
        var path: String
        var made_with: String
        var width: Int
        var height: Int
        /// 0, or 2 when djpeg warned (then ``JPEGDecoder/finish()`` throws `invalidData`).
        var djpeg_rc: Int
        var sha256: String
        var scale2: Picture
        var scale4: Picture
        var scale8: Picture

        /// The file's bytes.
        func bytes() throws -> [UInt8] { try Fixtures.bytes("jpeg-arith/" + path) }

        /// djpeg's picture at 1/`scale`.
        func picture(scale: ScaleFactor) -> Picture {
            switch scale {
            case .full: return Picture(width: width, height: height, sha256: sha256)
            case .half: return scale2
            case .quarter: return scale4
            case .eighth: return scale8
            }
        }
    }

    /// A fixture after a deterministic edit, and djpeg's picture of it.
    struct Damaged: Decodable {
        struct Edit: Decodable {
            var set: [Int]?
            var flip: [Int]?
            var insert: InsertedBytes?
            var delete: [Int]?
            var truncate: Int?
        }
        /// `[offset, [bytes]]` in the JSON.
        struct InsertedBytes: Decodable {
            var offset: Int
            var bytes: [UInt8]
            init(from decoder: any Decoder) throws {
                var container = try decoder.unkeyedContainer()
                offset = try container.decode(Int.self)
                bytes = try container.decode([UInt8].self)
            }
        }
        var path: String
        var description: String
        var edit: Edit
        var width: Int
        var height: Int
        var djpeg_rc: Int
        /// nil where djpeg's picture is smoothed progressive data this decoder does not reproduce yet.
        var sha256: String?

        /// The edited bytes (set, flip, insert, delete, truncate, in that order).
        func bytes() throws -> [UInt8] {
            var bytes = try Fixtures.bytes("jpeg-arith/" + path)
            if let set = edit.set { bytes[set[0]] = UInt8(set[1]) }
            if let flip = edit.flip { bytes[flip[0]] ^= UInt8(1) << UInt8(flip[1]) }
            if let insert = edit.insert { bytes.insert(contentsOf: insert.bytes, at: insert.offset) }
            if let delete = edit.delete { bytes.removeSubrange(delete[0]..<(delete[0] + delete[1])) }
            if let truncate = edit.truncate { bytes.removeSubrange(truncate...) }
            return bytes
        }
    }

    var fixtures: [Fixture]
    var damaged: [Damaged]

    /// Loads the JSON.
    static func load() throws -> JPEGArithmeticFixtures {
        try JSONDecoder().decode(JPEGArithmeticFixtures.self, from: Data(contentsOf: Fixtures.url("jpeg-arith/references.json")))
    }

    /// ``JPEGReferenceChecks/chunkings(_:seed:)`` with 1-byte feeding kept for files up to 4 KB
    /// (the 1-byte runs of the larger files are covered by the incremental tests).
    static func chunkings(_ bytes: [UInt8], seed: UInt64) -> [(String, [ArraySlice<UInt8>])] {
        JPEGReferenceChecks.chunkings(bytes, seed: seed).filter { $0.0 != "1-byte" || bytes.count <= 4096 }
    }

    /// What one decode gave: the picture (``JPEGDecoder/currentImage()`` when something threw),
    /// the error, and the warnings, for comparing with djpeg and across chunkings.
    struct Outcome: Equatable {
        var image: Image?
        var error: ImageDecodingError?
        var warnings: [ImageDecodingError]
    }

    /// Feeds `pieces` and finishes.
    static func decode(_ pieces: [ArraySlice<UInt8>], options: DecodingOptions = DecodingOptions()) -> Outcome {
        let decoder = JPEGDecoder(options: options)
        let thrown = feedAndFinish(decoder, pieces)
        return Outcome(image: decoder.currentImage(), error: thrown, warnings: decoder.warnings)
    }

    /// Describes how a decode differs from djpeg's `picture` and the expected error kind; nil when it matches.
    static func mismatch(_ result: Outcome, picture: Picture?,
                         width: Int, height: Int, error expected: ImageDecodingError.Kind?) -> String? {
        if result.error?.kind != expected { return "error \(String(describing: result.error)), expected \(String(describing: expected))" }
        guard let image = result.image else { return "no picture" }
        if image.width != width || image.height != height { return "size \(image.width)×\(image.height)" }
        if let picture, Digest.sha256(image.pixels) != picture.sha256 { return "pixels differ from djpeg's" }
        return nil
    }
}
