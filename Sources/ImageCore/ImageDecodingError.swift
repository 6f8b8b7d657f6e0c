/// The one error type every decoder throws.
///
/// It says what kind of problem it is (tests and callers switch on ``kind``), where in the
/// input it was found (``offset``, a byte offset from the start of the file) and, in words,
/// what was expected and what was found.
public struct ImageDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The class of problem.
    public enum Kind: String, Sendable, Hashable {
        /// The first bytes are not the signature of the format.
        case invalidSignature
        /// The data breaks the format's rules.
        case invalidData
        /// Valid data using a feature this library does not decode (e.g. arithmetic coding).
        case unsupported
        /// The input ended before the image was complete.
        case truncated
        /// A CRC, Adler-32 or similar check did not match.
        case checksumMismatch
        /// A configured limit (pixels, dimensions, metadata, scans, inflate output) was exceeded.
        case limitExceeded
        /// A bug in this library: never caused by any input. Fuzzers treat it as a crash.
        case `internal`
    }

    /// The class of problem.
    public var kind: Kind
    /// Byte offset in the input where the problem was found, if known.
    public var offset: Int?
    /// What was wrong, e.g. "PNG IHDR declares width 0".
    public var message: String

    /// Makes an error.
    public init(_ kind: Kind, at offset: Int?, _ message: String) {
        self.kind = kind
        self.offset = offset
        self.message = message
    }

    /// `kind at byte N: message`.
    public var description: String {
        if let offset { return "\(kind.rawValue) at byte \(offset): \(message)" }
        return "\(kind.rawValue): \(message)"
    }
}
