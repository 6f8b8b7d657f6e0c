/// Where a ``JPEGDecoder`` writes its pixel rows.
enum OutputTarget {
    /// Its own picture (`canvas`), handed out by `currentImage()`: the incremental API.
    case ownPicture
    /// Memory the caller of ``JPEGDecoder/decode(_:into:bytesPerRow:)`` owns, for that call only:
    /// rows of the natural pixel format `bytesPerRow` apart; the decoder allocates no picture.
    case callerMemory(UnsafeMutableRawBufferPointer, bytesPerRow: Int)
    /// ``JPEGDecoder/readHeader(_:options:)``: parsing stops at the frame header.
    case headerOnly
}
