import ImageCore

/// The table of formats ``ImageSource`` can recognise and decode.
///
/// A value type: ``standard`` holds the library's codecs; a caller (or a test) can add a
/// format with ``adding(_:)`` and hand the result to an ``ImageSource`` or a loader.
public struct ImageDecoderRegistry: Sendable {
    /// The formats, tried in order.
    public private(set) var factories: [ImageDecoderFactory]

    /// Makes a registry from factories.
    public init(_ factories: [ImageDecoderFactory]) {
        self.factories = factories
    }

    /// PNG, JPEG, GIF and WebP.
    public static let standard = ImageDecoderRegistry([.png, .jpeg, .gif, .webp])

    /// A copy with `factory` added, replacing any factory of the same format name.
    public func adding(_ factory: ImageDecoderFactory) -> ImageDecoderRegistry {
        var copy = self
        copy.factories.removeAll { $0.formatName == factory.formatName }
        copy.factories.append(factory)
        return copy
    }

    /// The factory for a format name (`"PNG"`, `"JPEG"`, `"GIF"`), if registered.
    public func factory(named formatName: String) -> ImageDecoderFactory? {
        factories.first { $0.formatName == formatName }
    }

    /// Whether a decoder for the named format is available in this build.
    public func canDecode(_ formatName: String) -> Bool {
        factory(named: formatName)?.isAvailable ?? false
    }

    /// The longest signature: once this many bytes are known the format is decided.
    var longestSignature: Int { factories.map(\.signature.count).max() ?? 0 }

    /// What the first bytes of an input say.
    enum Identification {
        /// The bytes start a registered signature but are too few to decide.
        case needMoreBytes
        /// The input starts with this factory's signature.
        case matched(ImageDecoderFactory)
        /// No registered signature starts like this.
        case unrecognised
    }

    /// Matches `prefix` (the first bytes of an input) against every signature.
    func identify(_ prefix: [UInt8]) -> Identification {
        var couldStillMatch = false
        for factory in factories where factory.signatureAgrees(with: prefix) {
            if prefix.count >= factory.signature.count { return .matched(factory) }
            couldStillMatch = true
        }
        return couldStillMatch ? .needMoreBytes : .unrecognised
    }
}
