/// How hard the match finder of a ``Deflater`` level searches.
///
/// The trade-offs follow zlib's level table (levels 1–3 greedy, 4–9 lazy): longer hash
/// chains and later "nice enough" cut-offs buy a few percent of size for a lot of time.
struct DeflaterLevelParameters: Sendable {
    /// Lazy matching (RFC 1951 4): before taking a match, look whether the next position
    /// starts a longer one.
    var lazy: Bool
    /// Lazy: when the current match is at least this long, search the next position's chain
    /// only a quarter as deep.
    var goodLength: Int
    /// Lazy: do not look for a better match after one at least this long. Greedy: insert the
    /// positions inside a match into the hash chains only for matches up to this long.
    var maxLazy: Int
    /// Stop searching a chain once a match at least this long is found.
    var niceLength: Int
    /// Most chain links followed per position.
    var maxChain: Int
    /// Shortest match taken; shorter ones are coded as literals. 3 (DEFLATE's minimum) except
    /// for ``DeflateStrategy/filtered``, which takes 6 and hashes 6 bytes.
    var shortestMatch = 3

    /// Parameters of level 1...9 (level 0 stores and never matches).
    static func forLevel(_ level: Int, strategy: DeflateStrategy = .default) -> DeflaterLevelParameters {
        var parameters = forLevel(level)
        if strategy == .filtered { parameters.shortestMatch = 6 }
        return parameters
    }

    private static func forLevel(_ level: Int) -> DeflaterLevelParameters {
        switch level {
        case ...1: return .init(lazy: false, goodLength: 4, maxLazy: 4, niceLength: 8, maxChain: 4)
        case 2: return .init(lazy: false, goodLength: 4, maxLazy: 5, niceLength: 16, maxChain: 8)
        case 3: return .init(lazy: false, goodLength: 4, maxLazy: 6, niceLength: 32, maxChain: 32)
        case 4: return .init(lazy: true, goodLength: 4, maxLazy: 4, niceLength: 16, maxChain: 16)
        case 5: return .init(lazy: true, goodLength: 8, maxLazy: 16, niceLength: 32, maxChain: 32)
        case 6: return .init(lazy: true, goodLength: 8, maxLazy: 16, niceLength: 128, maxChain: 128)
        case 7: return .init(lazy: true, goodLength: 8, maxLazy: 32, niceLength: 128, maxChain: 256)
        case 8: return .init(lazy: true, goodLength: 32, maxLazy: 128, niceLength: 258, maxChain: 1024)
        default: return .init(lazy: true, goodLength: 32, maxLazy: 258, niceLength: 258, maxChain: 4096)
        }
    }
}
