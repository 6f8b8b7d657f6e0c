import ImageCore

/// An incremental image source: recognises the format from the first bytes, then owns the
/// matching decoder and passes every later byte straight to it.
///
/// Unlike ImageIO's incremental source, which takes *all data so far* on each update
/// (O(n²) over a download), this takes only the new bytes, so a whole download costs O(n).
///
/// ```swift
/// let source = ImageSource()
/// for chunk in chunks { try source.feed(chunk) ; show(source.currentImage()) }
/// let image = try source.finish()
/// ```
public final class ImageSource: IncrementalImageDecoder {
    /// The options every decoder made by this source receives.
    public let options: DecodingOptions
    /// The formats this source can recognise.
    public let registry: ImageDecoderRegistry

    /// The decoder, once the format is known.
    private var decoder: (any IncrementalImageDecoder)?
    /// The first input bytes, kept until they decide the format: at most
    /// ``ImageDecoderRegistry/longestSignature`` bytes (8 for PNG), then handed to the decoder.
    private var signatureBytes: [UInt8] = []
    /// The error that ended sniffing; thrown again by every later call (errors are sticky).
    private var sniffError: ImageDecodingError?
    /// The factory that matched, once known.
    public private(set) var factory: ImageDecoderFactory?

    /// Makes a source.
    public init(options: DecodingOptions = DecodingOptions(), registry: ImageDecoderRegistry = .standard) {
        self.options = options
        self.registry = registry
    }

    /// The format's name (`"PNG"`, `"JPEG"`), once the signature has been seen.
    public var formatName: String? { factory?.formatName }

    /// Appends `bytes` and decodes as far as they allow.
    ///
    /// - Throws: `unsupported` when the first bytes match no format with a decoder (the message
    ///   names the bytes seen), and whatever the format's decoder throws.
    @discardableResult
    public func feed(_ bytes: UnsafeRawBufferPointer) throws -> DecodingStatus {
        if let decoder { return try decoder.feed(bytes) }
        if let sniffError { throw sniffError }
        // Take only as many bytes as can still change the decision.
        let wanted = max(registry.longestSignature - signatureBytes.count, 0)
        let taken = min(wanted, bytes.count)
        signatureBytes.append(contentsOf: bytes.prefix(taken))
        switch registry.identify(signatureBytes) {
        case .needMoreBytes:
            return .awaitingHeader
        case .unrecognised:
            // A few more bytes of context make the message more useful (e.g. to recognise WebP).
            let context = signatureBytes + bytes.dropFirst(taken).prefix(16 - min(signatureBytes.count, 16))
            throw remember(SignatureMismatch.error(prefix: context, registry: registry))
        case .matched(let match):
            guard let make = match.makeDecoder else {
                throw remember(ImageDecodingError(
                    .unsupported, at: 0,
                    "the input is \(match.formatName) (it starts with \(SignatureMismatch.hex(match.signature))), but this build has no \(match.formatName) decoder"))
            }
            let made = make(options)
            factory = match
            decoder = made
            let kept = signatureBytes
            signatureBytes = []
            try made.feed(kept)
            return try made.feed(UnsafeRawBufferPointer(rebasing: bytes[taken...]))
        }
    }

    /// Declares the end of input and returns the final image.
    ///
    /// - Throws: `truncated` if the input ended before its format was known, else whatever the decoder throws.
    public func finish() throws -> Image {
        if let decoder { return try decoder.finish() }
        if let sniffError { throw sniffError }
        let seen = signatureBytes.isEmpty ? "no bytes at all" : "only \(signatureBytes.count) byte(s), \(SignatureMismatch.hex(signatureBytes))"
        throw remember(ImageDecodingError(.truncated, at: signatureBytes.count,
                                          "the input ended after \(seen), before its format signature was complete"))
    }

    /// The header, once the decoder has parsed it.
    public var header: ImageHeader? { decoder?.header }

    /// Where decoding stands (`awaitingHeader` until the format is known).
    public var status: DecodingStatus { decoder?.status ?? .awaitingHeader }

    /// The best picture so far, or nil before the header.
    public func currentImage() -> Image? { decoder?.currentImage() }

    /// Input bytes examined: the decoder's count (which includes the signature bytes handed to it),
    /// or the signature bytes held while the format is still unknown.
    public var inputBytesExamined: Int { decoder?.inputBytesExamined ?? signatureBytes.count }

    private func remember(_ error: ImageDecodingError) -> ImageDecodingError {
        sniffError = error
        return error
    }
}

extension ImageSource: AnimatedImageDecoder {
    /// The decoder's animation info, if the format is animated and the decoder supports it.
    public var animation: AnimationInfo? { (decoder as? any AnimatedImageDecoder)?.animation }

    /// The decoder's next frame (see ``AnimatedImageDecoder/nextFrame()``); nil for still formats.
    public func nextFrame() throws -> AnimationFrame? {
        try (decoder as? any AnimatedImageDecoder)?.nextFrame()
    }
}
