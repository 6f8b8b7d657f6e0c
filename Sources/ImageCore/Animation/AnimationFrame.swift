/// One frame of an animation (APNG, GIF, animated WebP), composited onto the whole canvas.
///
/// ``image`` is what a viewer shows for ``duration`` seconds: the canvas after this frame's
/// region was blended in, and before its ``disposal`` runs (disposal acts on the *next* frame's
/// starting canvas). Callers that composite themselves use ``regionImage`` and ``region``.
public struct AnimationFrame: Sendable, Equatable {
    /// Position in the animation, from 0.
    public var index: Int
    /// The composited canvas: `canvasWidth × canvasHeight`, RGBA (``PixelFormat/rgba8``, or
    /// ``PixelFormat/rgba16`` for 16-bit APNG). Transparent pixels are (0, 0, 0, 0).
    public var image: Image
    /// How long the frame is shown, in seconds (APNG `delay_num/delay_den`, GIF centiseconds / 100).
    /// The file's value unchanged: a player may raise tiny delays as browsers do.
    public var duration: Double
    /// This frame's own rectangle on the canvas (clipped to the canvas).
    public var region: FrameRegion
    /// This frame's own pixels before compositing, `region.width × region.height`, same format as ``image``.
    public var regionImage: Image
    /// What happens to the region before the next frame is drawn.
    public var disposal: FrameDisposal
    /// How the region was combined with the canvas.
    public var blend: FrameBlend

    /// Makes a frame.
    public init(index: Int, image: Image, duration: Double, region: FrameRegion, regionImage: Image,
                disposal: FrameDisposal, blend: FrameBlend) {
        self.index = index
        self.image = image
        self.duration = duration
        self.region = region
        self.regionImage = regionImage
        self.disposal = disposal
        self.blend = blend
    }

    /// The same frame with `transform` applied to its canvas and its region's pixels (a colour
    /// conversion, say); everything else is kept.
    public func mappingImages(_ transform: (Image) throws -> Image) rethrows -> AnimationFrame {
        var mapped = self
        mapped.image = try transform(image)
        mapped.regionImage = try transform(regionImage)
        return mapped
    }
}

/// A rectangle on the canvas, in pixels.
public struct FrameRegion: Sendable, Hashable {
    /// Left edge.
    public var x: Int
    /// Top edge.
    public var y: Int
    /// Width (may be 0 for a frame entirely outside the canvas).
    public var width: Int
    /// Height (may be 0 for a frame entirely outside the canvas).
    public var height: Int

    /// Makes a rectangle.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

/// What a frame's region becomes before the next frame is drawn (APNG `dispose_op`, GIF disposal method).
public enum FrameDisposal: Sendable, Hashable {
    /// Left as drawn.
    case none
    /// Cleared to transparent black (APNG `APNG_DISPOSE_OP_BACKGROUND`, GIF disposal 2 as browsers do it).
    case background
    /// Restored to what it was before this frame was drawn.
    case previous
}

/// How a frame's region is combined with the canvas (APNG `blend_op`).
public enum FrameBlend: Sendable, Hashable {
    /// The region replaces the canvas pixels, alpha included.
    case source
    /// The region is alpha-composited over the canvas ("over" operator). GIF transparency is this.
    case over
}

/// What the file says about its animation as a whole.
public struct AnimationInfo: Sendable, Hashable {
    /// Times to play the animation; 0 means forever (APNG `num_plays`, GIF NETSCAPE2.0 loop count).
    public var loopCount: Int
    /// Frames the file declares (APNG `num_frames`), or nil where the format does not say (GIF).
    public var declaredFrameCount: Int?
    /// Canvas width.
    public var canvasWidth: Int
    /// Canvas height.
    public var canvasHeight: Int

    /// Makes the description.
    public init(loopCount: Int, declaredFrameCount: Int?, canvasWidth: Int, canvasHeight: Int) {
        self.loopCount = loopCount
        self.declaredFrameCount = declaredFrameCount
        self.canvasWidth = canvasWidth
        self.canvasHeight = canvasHeight
    }
}
