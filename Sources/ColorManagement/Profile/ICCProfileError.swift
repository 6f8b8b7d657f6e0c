/// Why an ICC profile could not be used.
///
/// Decoders never throw it: a profile that fails to parse is reported in their warnings and
/// ignored, and the image keeps its original samples.
public struct ICCProfileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The class of problem.
    public enum Kind: String, Sendable, Hashable {
        /// The profile ends before a structure it declares (header, tag table, tag data).
        case truncated
        /// A header or tag breaks ICC.1 (bad signature, size, offset, count, parameter).
        case invalidData
        /// Valid ICC that this library does not convert (e.g. a colour space other than
        /// gray/RGB/CMYK, a device link, a missing A2B tag).
        case unsupported
        /// A declared size is beyond ``ICCProfile/maximumGridPoints`` or similar bounds.
        case limitExceeded
    }

    /// The class of problem.
    public var kind: Kind
    /// Byte offset in the profile where it was found.
    public var offset: Int
    /// What was expected and what was found.
    public var message: String

    /// Makes an error.
    public init(_ kind: Kind, at offset: Int, _ message: String) {
        self.kind = kind
        self.offset = offset
        self.message = message
    }

    /// `kind at profile byte N: message`.
    public var description: String { "ICC \(kind.rawValue) at profile byte \(offset): \(message)" }
}
