import IncrementalImage

/// The decoding side of one load: an ``ImageSource`` plus the thumbnail logic of `maxPixelSize`.
///
/// For a thumbnail of a format that scales while decoding (JPEG), the scale must be chosen
/// before decoding starts, but depends on the size in the header. So a first source reads the
/// header while the bytes it saw are kept (a few KiB: markers before the frame header); once the
/// size is known, a source with the chosen scale gets those bytes and everything after.
/// Whatever the decoder leaves larger than `maxPixelSize` is shrunk exactly by ``ImageDownscaler``.
///
/// Not thread-safe: used only on its job's serial queue.
final class StreamingDecoder {
    private let options: DecodingOptions
    private let registry: ImageDecoderRegistry
    private let maxPixelSize: Int?
    /// Whether previews and the final image are turned upright by their EXIF orientation.
    private let appliesOrientation: Bool
    /// The source the rest of the input goes to.
    private var source: ImageSource
    /// Bytes seen while choosing the scale; nil once the choice is made.
    private var heldBytes: [UInt8]?

    init(options: DecodingOptions, registry: ImageDecoderRegistry, maxPixelSize: Int?, appliesOrientation: Bool = false) {
        self.options = options
        self.registry = registry
        self.maxPixelSize = maxPixelSize
        self.appliesOrientation = appliesOrientation
        source = ImageSource(options: options, registry: registry)
        // Only an unscaled request for a bounded size needs to look at the header first.
        heldBytes = (maxPixelSize != nil && options.scale == .full) ? [] : nil
    }

    /// The scale that leaves the longer side at least `maxPixelSize`: the decoder does the cheap
    /// coarse part, the exact resize the rest. Example: 4000 × 3000 for 600 px picks 1/4 (1000 × 750);
    /// for 500 px, 1/8 (500 × 375, nothing left to resize).
    static func scale(width: Int, height: Int, maxPixelSize: Int) -> ScaleFactor {
        let longer = max(width, height)
        for scale in [ScaleFactor.eighth, .quarter, .half] where scale.scaled(longer) >= maxPixelSize {
            return scale
        }
        return .full
    }

    /// Decodes `bytes` (only the new ones).
    func feed(_ bytes: UnsafeRawBufferPointer) throws {
        guard heldBytes != nil else {
            try source.feed(bytes)
            return
        }
        heldBytes?.append(contentsOf: bytes)
        try source.feed(bytes)
        if let factory = source.factory, !factory.supportsScaling {
            heldBytes = nil  // this format cannot scale: keep decoding with the first source
        } else if let header = source.header, let maxPixelSize {
            let scale = Self.scale(width: header.width, height: header.height, maxPixelSize: maxPixelSize)
            let held = heldBytes ?? []
            heldBytes = nil
            guard scale != .full else { return }
            var scaled = options
            scaled.scale = scale
            source = ImageSource(options: scaled, registry: registry)
            try source.feed(held)
        }
    }

    /// Whether the decoder holds the whole image.
    var isComplete: Bool { heldBytes == nil && source.status.isComplete }

    /// Changes exactly when ``preview()`` would return a different picture.
    var previewGeneration: Int { source.status.previewGeneration }

    /// The best picture so far, shrunk like the final image; nil before the header.
    func preview() -> Image? {
        guard heldBytes == nil, let image = source.currentImage() else { return nil }
        return fitted(image)
    }

    /// Why the animation stopped early (a damaged frame), if it did: no frame is asked for after
    /// it, and the load goes on to its still image, as the APNG spec asks viewers to fall back to
    /// the default image. A still image that cannot be decoded still fails the load.
    private(set) var animationFailure: (any Error)?

    /// The next composited animation frame whose data has arrived (nil for still images, if the
    /// next frame is incomplete, or once the animation broke: see ``animationFailure``). Frames
    /// are shrunk like previews, but never turned: a frame's region refers to the canvas as stored.
    func nextFrame() -> AnimationFrame? {
        guard heldBytes == nil, animationFailure == nil else { return nil }
        let next: AnimationFrame?
        do { next = try source.nextFrame() } catch {
            animationFailure = error
            return nil
        }
        guard var frame = next else { return nil }
        if let maxPixelSize {
            frame.image = ImageDownscaler.fit(frame.image, maxPixelSize: maxPixelSize)
        }
        return frame
    }

    /// The final image, shrunk to `maxPixelSize`.
    func finish() throws -> Image {
        fitted(try source.finish())
    }

    /// Shrinks first (the longer side is the same either way round), then turns upright.
    private func fitted(_ image: Image) -> Image {
        var result = image
        if let maxPixelSize { result = ImageDownscaler.fit(result, maxPixelSize: maxPixelSize) }
        if appliesOrientation, result.orientation != .up { result = result.applyingOrientation() }
        return result
    }
}
