/// What a ``Deflater`` tunes its match search for (zlib's `strategy` argument).
public enum DeflateStrategy: Sendable, Hashable {
    /// General data: every match of 3 bytes or more counts.
    case `default`
    /// Small, noisy values such as PNG-filtered image rows, where short matches cost about as
    /// many bits as the literals they replace: only matches of 6 bytes or more are taken, as
    /// zlib's `Z_FILTERED` (libpng's default) does, and positions are hashed on 6 bytes, so hash
    /// chains hold far fewer useless candidates and the search is several times faster.
    case filtered
}
