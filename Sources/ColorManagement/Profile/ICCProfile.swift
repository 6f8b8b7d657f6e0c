/// A parsed ICC profile (ICC.1:2010 v4 and ICC.1:2001 v2): header and tag table, with the tags
/// this library converts with read on demand.
///
/// Parsing checks every offset and length against the profile, so hostile bytes throw
/// ``ICCProfileError`` and never trap.
///
/// ```swift
/// let profile = try ICCProfile(bytes)
/// print(profile.colorSpace, profile.majorVersion)      // .rgb, 4
/// let converter = try ColorConverter(source: .iccProfile(profile), sampleFormat: .rgb8)
/// ```
public struct ICCProfile: Sendable, Hashable {
    /// One entry of the tag table (ICC.1 7.3).
    struct TagEntry: Sendable, Hashable {
        var offset: Int
        var size: Int
    }

    /// The profile bytes (the header's size field, if smaller than what was given, cuts them).
    public let bytes: [UInt8]
    /// Major version (2 or 4 for the profiles in use).
    public let majorVersion: Int
    /// Minor version and bug-fix digits as stored, e.g. 0x20 for 2.2, 0x40 for 4.4.
    public let minorVersion: Int
    /// The device class.
    public let deviceClass: ICCDeviceClass
    /// The colour space of the device data (the image samples).
    public let colorSpace: ICCColorSpace
    /// The profile connection space: `.xyz` or `.lab` (D50).
    public let connectionSpace: ICCColorSpace
    /// The header's rendering intent (0 perceptual, 1 relative, 2 saturation, 3 absolute).
    public let headerRenderingIntent: Int
    /// Tag signatures in table order.
    public let tagSignatures: [ICCSignature]
    let tags: [ICCSignature: TagEntry]

    /// Largest profile accepted (a real profile is rarely above a few MB).
    public static let maximumSize = 64 << 20

    /// Parses the header and tag table.
    public init(_ data: [UInt8]) throws {
        guard data.count <= Self.maximumSize else {
            throw ICCProfileError(.limitExceeded, at: 0, "profile is \(data.count) bytes, limit \(Self.maximumSize)")
        }
        let whole = ICCDataReader(bytes: data)
        try whole.require(0, 132, "the header and tag count")
        let declared = Int(try whole.uInt32(0))
        guard declared >= 132 else {
            throw ICCProfileError(.invalidData, at: 0, "profile size field is \(declared), below the 132-byte minimum")
        }
        guard declared <= data.count else {
            throw ICCProfileError(.truncated, at: 0, "profile size field is \(declared), only \(data.count) bytes present")
        }
        guard try whole.signature(36) == .profileFileSignature else {
            throw ICCProfileError(.invalidData, at: 36, "profile file signature is '\(try whole.signature(36))', expected 'acsp'")
        }
        bytes = declared == data.count ? data : Array(data[0..<declared])
        let reader = ICCDataReader(bytes: bytes)
        majorVersion = Int(try reader.uInt8(8))
        minorVersion = Int(try reader.uInt8(9))
        deviceClass = ICCDeviceClass(try reader.signature(12))
        colorSpace = ICCColorSpace(try reader.signature(16))
        connectionSpace = ICCColorSpace(try reader.signature(20))
        headerRenderingIntent = Int(try reader.uInt32(64) & 0xFFFF)
        let tagCount = Int(try reader.uInt32(128))
        guard tagCount <= (bytes.count - 132) / 12 else {
            throw ICCProfileError(.truncated, at: 128, "tag table declares \(tagCount) tags, room for \((bytes.count - 132) / 12)")
        }
        var table: [ICCSignature: TagEntry] = [:]
        var order: [ICCSignature] = []
        for index in 0..<tagCount {
            let entry = 132 + 12 * index
            let signature = try reader.signature(entry)
            let offset = Int(try reader.uInt32(entry + 4))
            let size = Int(try reader.uInt32(entry + 8))
            // A tag that points outside the profile is only an error if it is used (lcms does the same).
            if table[signature] == nil {
                table[signature] = TagEntry(offset: offset, size: size)
                order.append(signature)
            }
        }
        tags = table
        tagSignatures = order
    }

    /// Whether the tag table lists `signature`.
    public func hasTag(_ signature: ICCSignature) -> Bool { tags[signature] != nil }

    /// A reader over one tag's bytes (offsets relative to the profile) after checking its range
    /// and that its type is one of `types`. Returns the tag's start and its type.
    func tagData(_ signature: ICCSignature) throws -> (reader: ICCDataReader, start: Int, end: Int, type: ICCSignature)? {
        guard let entry = tags[signature] else { return nil }
        let reader = ICCDataReader(bytes: bytes)
        try reader.require(entry.offset, entry.size, "tag '\(signature)'")
        guard entry.size >= 8 else {
            throw ICCProfileError(.invalidData, at: entry.offset, "tag '\(signature)' is \(entry.size) bytes, below the 8-byte type header")
        }
        return (reader, entry.offset, entry.offset + entry.size, try reader.signature(entry.offset))
    }
}
