import IncrementalImage

/// What ``ImageLoader/images(for:)`` delivers, in this order: progress and previews while the
/// bytes arrive, then one `completed` (or the stream throws). With
/// ``ImageCachePolicy/refreshCached`` a cached image comes as a first `completed`, and a second
/// follows only if the server sent a different image.
public enum ImageLoadEvent: Sendable {
    /// Bytes received so far, and the total if the server said it.
    case progress(received: Int, expected: Int?)
    /// A picture sharper than the previous one (only when the decoder's preview generation changed).
    case preview(Image)
    /// The next frame of an animation (APNG, GIF, animated WebP), composited onto the canvas,
    /// as soon as its data has arrived; only for requests with ``ImageRequest/deliversFrames``.
    /// Frames are never dropped, so they wait for a slow consumer: keep up, or do not ask.
    case frame(AnimationFrame)
    /// The final image.
    case completed(ImageResponse)
}
