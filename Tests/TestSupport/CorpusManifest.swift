import Foundation

/// The conformance corpus manifest (`TestImages/corpus/manifest.json`, see its README).
public struct CorpusManifest: Decodable, Sendable {
    /// One file of the corpus.
    public struct Entry: Decodable, Sendable {
        /// Path below `TestImages/corpus/`.
        public var path: String
        /// `decode`, `error` or `error_or_partial`.
        public var expect: String
        /// Present when a decoder may answer `unsupported` (arithmetic, 12-bit, CMYK, APNG).
        public var optional: String?
        /// The error class for `expect: error` files.
        public var expected_error_class: String?
        /// Reference pixels.
        public var reference: Reference?
        /// The EXIF orientation, for orientation fixtures.
        public var exif_orientation: Int?
        /// The hash after applying the orientation.
        public var oriented_reference: Reference?
        /// SHA-256 of the reassembled ICC profile.
        public var icc_sha256: String?
        /// Raw CMYK reference for CMYK/YCCK JPEGs.
        public var reference_cmyk: Reference?
        /// Format features (kept as loose JSON: they differ between JPEG and PNG).
        public var features: [String: JSONValue]?

        /// Whether the path is a JPEG file.
        public var isJPEG: Bool { path.hasPrefix("jpeg/") }
        /// Whether the path is a PNG file.
        public var isPNG: Bool { path.hasPrefix("png/") }
        /// `features.progressive` (JPEG) or `features.interlaced` (PNG).
        public var isProgressive: Bool {
            features?["progressive"]?.bool ?? features?["interlaced"]?.bool ?? false
        }
    }

    /// A reference image description.
    public struct Reference: Decodable, Sendable {
        /// Reference width.
        public var width: Int?
        /// Reference height.
        public var height: Int?
        /// `gray8`, `rgb8`, `rgba8`, `rgba16be`, `rgb16be(12-bit values)`, `cmyk8`…
        public var pixel_format: String?
        /// SHA-256 of the raw pixels.
        public var sha256: String?
        /// MD5 of the whole djpeg PNM file.
        public var pnm_md5: String?
        /// For 16-bit PNGs: hash of `v >> 8` RGBA8.
        public var rgba8_from16_shift_sha256: String?
        /// For 16-bit PNGs: hash of rounded RGBA8.
        public var rgba8_from16_round_sha256: String?
        /// Set when the reference is only informational (partial data).
        public var informational_only: Bool?
    }

    /// Every file.
    public var files: [Entry]

    /// Loads `TestImages/corpus/manifest.json`.
    public static func load() throws -> CorpusManifest {
        let data = try Data(contentsOf: Fixtures.url("corpus/manifest.json"))
        return try JSONDecoder().decode(CorpusManifest.self, from: data)
    }

    /// The bytes of an entry's file.
    public static func bytes(of entry: Entry) throws -> [UInt8] { try Fixtures.bytes("corpus/" + entry.path) }
}

/// A loosely typed JSON value.
public enum JSONValue: Decodable, Sendable {
    case bool(Bool), number(Double), string(String), array([JSONValue]), object([String: JSONValue]), null

    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let n = try? c.decode(Double.self) { self = .number(n) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([JSONValue].self) { self = .array(a) }
        else { self = .object(try c.decode([String: JSONValue].self)) }
    }

    /// The value as a Bool, if it is one.
    public var bool: Bool? { if case .bool(let b) = self { return b }; return nil }
    /// The value as an Int, if it is a number.
    public var int: Int? { if case .number(let n) = self { return Int(n) }; return nil }
    /// The value as a String, if it is one.
    public var string: String? { if case .string(let s) = self { return s }; return nil }
    /// The member `key`, if this is an object.
    public subscript(key: String) -> JSONValue? { if case .object(let o) = self { return o[key] }; return nil }
}
