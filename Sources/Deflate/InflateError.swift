/// An error found in compressed data, with where it was found.
public struct InflateError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Each check the inflater makes has its own kind.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// zlib CMF/FLG wrong (method not 8, window over 32 KiB, check bits), or gzip magic/method/flags wrong.
        case invalidHeader
        /// zlib FDICT: a preset dictionary is required, which this inflater does not support.
        case presetDictionaryUnsupported
        /// Block type 3 (RFC 1951 3.2.3).
        case invalidBlockType
        /// A Huffman code whose lengths describe more codes than fit (RFC 1951 3.2.2).
        case oversubscribedCode
        /// A Huffman code whose lengths leave codes unused (allowed only for a single distance code).
        case incompleteCode
        /// A code-length repeat with nothing to repeat, or running past the number of lengths;
        /// or HLIT/HDIST out of range; or a literal/length code without an end-of-block code.
        case invalidCodeLengths
        /// A literal/length symbol 286–287 or distance symbol 30–31.
        case invalidSymbol
        /// A distance reaching back before the start of the output.
        case distanceTooFar
        /// A stored block whose LEN and NLEN are not complements.
        case storedLengthMismatch
        /// The input ended inside the stream.
        case truncated
        /// The Adler-32 (zlib), CRC-32 (gzip) or gzip header CRC does not match.
        case checksumMismatch
        /// The gzip ISIZE does not match the output length modulo 2^32.
        case lengthMismatch
        /// Bytes follow the end of the stream.
        case trailingData
        /// The output grew past ``InflateOptions/maxOutputBytes``.
        case outputLimitExceeded
    }

    /// Which check failed.
    public var kind: Kind
    /// Byte offset in the compressed input where it was found.
    public var offset: Int
    /// What was expected and what was found.
    public var message: String

    /// Makes an error.
    public init(_ kind: Kind, at offset: Int, _ message: String) {
        self.kind = kind
        self.offset = offset
        self.message = message
    }

    /// `kind at byte N: message`.
    public var description: String { "\(kind.rawValue) at byte \(offset): \(message)" }
}
