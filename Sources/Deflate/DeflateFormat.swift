/// The wrapper around DEFLATE data.
public enum DeflateFormat: String, Sendable, Hashable, CaseIterable {
    /// zlib (RFC 1950): 2-byte header, DEFLATE data, Adler-32 of the output.
    case zlib
    /// Raw DEFLATE (RFC 1951): no header, no check.
    case raw
    /// gzip (RFC 1952): header with optional FEXTRA/FNAME/FCOMMENT/FHCRC, DEFLATE data,
    /// CRC-32 and ISIZE; several members may follow one another.
    case gzip
}

/// Settings of an ``Inflater``.
public struct InflateOptions: Sendable, Hashable {
    /// Verify Adler-32 (zlib), CRC-32, ISIZE and the header CRC (gzip). Default true.
    public var verifyChecksums: Bool
    /// Largest number of output bytes allowed before ``InflateError/Kind/outputLimitExceeded``
    /// is thrown: stops decompression bombs. Default 1 GiB.
    public var maxOutputBytes: Int
    /// Whether bytes after the end of the stream are an error (default) or only counted in
    /// ``Inflater/trailingByteCount``.
    public var rejectTrailingData: Bool

    /// Makes options; every argument has a default.
    public init(verifyChecksums: Bool = true, maxOutputBytes: Int = 1 << 30, rejectTrailingData: Bool = true) {
        self.verifyChecksums = verifyChecksums
        self.maxOutputBytes = maxOutputBytes
        self.rejectTrailingData = rejectTrailingData
    }
}

/// What ``Inflater/feed(_:into:)`` reached.
public enum InflateStatus: Sendable, Hashable {
    /// All input was consumed; more is needed.
    case needsInput
    /// The stream (the last gzip member) ended.
    case streamEnd
}
