/// One tEXt, zTXt or iTXt chunk (PNG 11.3.4).
public struct PNGTextEntry: Sendable, Hashable {
    /// Which chunk carried the text.
    public enum Kind: String, Sendable, Hashable {
        /// tEXt: uncompressed Latin-1.
        case tEXt
        /// zTXt: compressed Latin-1.
        case zTXt
        /// iTXt: UTF-8, optionally compressed, with a language tag.
        case iTXt
    }

    /// The chunk type.
    public var kind: Kind
    /// The keyword, 1 ... 79 characters (e.g. "Title", "Author").
    public var keyword: String
    /// The text (decoded from Latin-1 for tEXt/zTXt, UTF-8 for iTXt).
    public var text: String
    /// iTXt only: the RFC 3066 language tag (may be empty).
    public var languageTag: String?
    /// iTXt only: the keyword translated into that language (may be empty).
    public var translatedKeyword: String?

    /// Makes an entry.
    public init(kind: Kind, keyword: String, text: String, languageTag: String? = nil, translatedKeyword: String? = nil) {
        self.kind = kind
        self.keyword = keyword
        self.text = text
        self.languageTag = languageTag
        self.translatedKeyword = translatedKeyword
    }
}
