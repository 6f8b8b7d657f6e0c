/// A decoder of a format that can carry an animation (APNG, GIF, animated WebP).
///
/// The ``IncrementalImageDecoder`` side is unchanged: `currentImage()` and `finish()` give the
/// default image (APNG: the IDAT image; GIF and WebP: the first frame), so callers that do not
/// care about animation need nothing new.
///
/// Frames are pulled, as soon as their data has arrived:
/// ```swift
/// let decoder = PNGDecoder()
/// for piece in download {
///     try decoder.feed(piece)
///     while let frame = try decoder.nextFrame() { play(frame.image, for: frame.duration) }
/// }
/// _ = try decoder.finish()
/// while let frame = try decoder.nextFrame() { play(frame.image, for: frame.duration) }  // the last ones
/// ```
/// Memory stays at the canvas plus one previous canvas however many frames there are: a
/// decoder composites at most one frame ahead of what ``nextFrame()`` has returned and keeps
/// later frames' bytes undecoded until they are asked for.
public protocol AnimatedImageDecoder: IncrementalImageDecoder {
    /// The animation's loop count and canvas once known; nil before that and for a still image.
    var animation: AnimationInfo? { get }
    /// The next composited frame whose data has all been fed, in file order, each once; nil if
    /// the next frame's bytes have not all arrived yet (or there are no more frames).
    ///
    /// - Throws: the error of malformed frame data (sticky, like `feed`); frames returned
    ///   before it stay valid.
    func nextFrame() throws -> AnimationFrame?
}
