import ImageCore

/// Feeds `pieces` to `decoder` in order, then finishes it; returns the error that stopped it (a
/// non-decoding error as `.internal`), or nil. `currentImage()` then shows what was decoded.
public func feedAndFinish(_ decoder: some IncrementalImageDecoder, _ pieces: [ArraySlice<UInt8>]) -> ImageDecodingError? {
    do {
        for piece in pieces { try decoder.feed(piece) }
        _ = try decoder.finish()
        return nil
    } catch {
        return error as? ImageDecodingError ?? ImageDecodingError(.internal, at: nil, "\(error)")
    }
}
