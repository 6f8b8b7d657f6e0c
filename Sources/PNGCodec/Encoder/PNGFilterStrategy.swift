/// How ``PNGEncoder`` picks the filter of each row (PNG 12.8).
public enum PNGFilterStrategy: Sendable, Hashable {
    /// Every row unfiltered (type 0): fastest, largest.
    case none
    /// Every row with the same filter type (0 none, 1 sub, 2 up, 3 average, 4 Paeth; other values act as 0).
    case fixed(UInt8)
    /// Per row, the filter whose output has the smallest sum of absolute values (bytes read as
    /// signed): the heuristic PNG 12.8 recommends and libpng uses. Palette and sub-byte gray
    /// rows are left unfiltered, as PNG 12.8 advises. The default.
    case adaptive
}
