import ImageCore

/// How to recognise one image format from its first bytes, and how to make its decoder.
///
/// ``ImageSource`` picks the factory whose ``signature`` the input starts with. A factory
/// without ``makeDecoder`` still names its format, so such input fails with a clear
/// `unsupported` error instead of "unknown bytes".
public struct ImageDecoderFactory: Sendable {
    /// Short name used in messages and lookups, e.g. `"PNG"`.
    public var formatName: String
    /// The bytes every file of the format starts with (at least one byte).
    public var signature: [UInt8]
    /// Offsets in ``signature`` whose byte may be anything (WebP's `RIFF????WEBP`: the RIFF size).
    public var signatureWildcards: Set<Int>
    /// Whether the decoder honours ``DecodingOptions/scale`` (JPEG scales in the DCT domain),
    /// so a loader asking for a thumbnail can let the decoder do most of the shrinking.
    public var supportsScaling: Bool
    /// Makes a decoder; `nil` when this build has no decoder for the format.
    public var makeDecoder: (@Sendable (DecodingOptions) -> any IncrementalImageDecoder)?

    /// Makes a factory.
    public init(formatName: String, signature: [UInt8], signatureWildcards: Set<Int> = [], supportsScaling: Bool = false,
                makeDecoder: (@Sendable (DecodingOptions) -> any IncrementalImageDecoder)?) {
        self.formatName = formatName
        self.signature = signature
        self.signatureWildcards = signatureWildcards
        self.supportsScaling = supportsScaling
        self.makeDecoder = makeDecoder
    }

    /// Whether a decoder can be made.
    public var isAvailable: Bool { makeDecoder != nil }

    /// Whether the first `min(prefix.count, signature.count)` bytes of `prefix` agree with the
    /// signature (wildcard offsets agree with anything).
    func signatureAgrees(with prefix: [UInt8]) -> Bool {
        for (offset, byte) in zip(signature.indices, prefix) where !signatureWildcards.contains(offset) {
            if signature[offset] != byte { return false }
        }
        return true
    }
}
