import ImageCore

/// Decodes a GIF file (GIF87a and GIF89a) incrementally, with its animation: feed bytes as they
/// arrive, take ``currentImage()`` (the first frame so far) at any moment, and pull composited
/// frames with ``nextFrame()`` as soon as their data is in.
///
/// Work is O(total bytes) however the input is split: bytes are copied once into one
/// ``InputBuffer``; each block header is parsed once (``GIFBlockReader``); LZW data is decoded
/// as it arrives, across sub-blocks and chunks (``LZWDecoder``).
///
/// Output is always ``PixelFormat/rgba8`` (or ``DecodingOptions/preferredFormat``): whether a
/// GIF has transparency is only known at each frame's Graphic Control Extension, after the
/// header, and canvas pixels no frame covers are transparent anyway. Transparent pixels are
/// (0, 0, 0, 0).
///
/// Compositing follows browsers (Chromium; Wuffs agrees): the background colour is ignored and
/// the canvas starts transparent; disposal 2 clears the frame's rectangle to transparent;
/// disposal 3 restores the rectangle as it was before the frame; 0, 1 and 4–7 keep the frame; a
/// disposal applies to its own frame only. Frames reaching outside the canvas are clipped (the
/// canvas never grows). Odd files browsers show are shown: a missing trailer, minimum code sizes
/// 0–11, deferred clear codes, frames whose data ends early (the rest of the frame stays as it
/// was) or carries extra pixels (dropped), colour indices past the colour table or in a frame with
/// no table (opaque black, as Wuffs, and so Chromium, shows them), a byte that starts no block
/// (decoding stops there, as in Chromium).
///
/// ```swift
/// let decoder = GIFDecoder()
/// for piece in download {
///     try decoder.feed(piece)
///     show(decoder.currentImage())                                   // the first frame so far
///     while let frame = try decoder.nextFrame() { play(frame.image, for: frame.duration) }
/// }
/// let still = try decoder.finish()                                    // the first frame
/// while let frame = try decoder.nextFrame() { play(frame.image, for: frame.duration) }  // the last ones
/// ```
public final class GIFDecoder: IncrementalImageDecoder, AnimatedImageDecoder {
    /// The options in force.
    public let options: DecodingOptions
    /// Known right after the Logical Screen Descriptor: the canvas size. `isProgressive` is set
    /// once the first frame's descriptor says it is interlaced.
    public internal(set) var header: ImageHeader?
    /// Oddities that did not stop decoding (a byte that starts no block, a short Graphic Control
    /// Extension), each with its byte offset.
    public internal(set) var warnings: [ImageDecodingError] = []

    let input = InputBuffer()
    var reader = GIFBlockReader()
    var scanner = GIFStructureScanner()
    let lzw = LZWDecoder()
    /// The canvas, from the header on.
    var canvas: RGBACanvas?
    /// The global colour table's RGB bytes (empty if the file has none).
    var globalColors: [UInt8] = []
    /// The Graphic Control Extension read since the last image, for the next image only.
    var pendingControl: GIFGraphicControl?
    /// The frame whose data is being decoded.
    var frame: FrameDecoding?
    /// Frames whose data has been decoded completely.
    var completedFrames = 0
    /// A composited frame not yet handed out by `nextFrame()`. While it waits, the next frame is
    /// not started: the decoder stays at most one frame ahead of the caller.
    var readyFrame: AnimationFrame?
    /// What the last frame's disposal does before the next frame is drawn.
    var pendingDisposal = PendingDisposal.keep
    /// The first frame composited: the default image once complete.
    var firstFrameImage: Image?
    /// The first frame's progress, for `status`.
    var firstFrameRows = 0
    var firstFramePasses = 0
    var failure: ImageDecodingError?
    /// Set by `finish()`: no more input comes.
    var inputEnded = false
    var finishedCleanly = false
    var previewGeneration = 0
    var lzwBytesExamined = 0
    private var cachedImage: Image?
    private var cachedGeneration = -1

    /// Makes a decoder.
    public init(options: DecodingOptions = DecodingOptions()) {
        self.options = options
    }

    /// Where decoding stands: rows and interlace passes of the first frame; complete once the
    /// first frame is decoded and the trailer (or, at `finish()`, the end of a complete block) seen.
    public var status: DecodingStatus {
        guard header != nil else { return .awaitingHeader }
        let progress = DecodingProgress(completedRows: firstFrameRows, completedScans: firstFramePasses,
                                        previewGeneration: previewGeneration)
        if firstFrameImage != nil && (scanner.reader.stage == .ended || finishedCleanly) { return .complete(progress) }
        return .decoding(progress)
    }

    /// Input bytes examined: block headers, tables and extensions read by the decoder, LZW data
    /// bytes, and the block headers the structure scanner reads ahead (never image data).
    public var inputBytesExamined: Int {
        reader.structureBytesExamined + lzwBytesExamined + scanner.bytesExamined
    }

    /// Appends `bytes` and decodes as far as they allow (the whole first frame; later frames as
    /// ``nextFrame()`` asks for them).
    @discardableResult
    public func feed(_ bytes: UnsafeRawBufferPointer) throws -> DecodingStatus {
        if let failure { throw failure }
        if inputEnded { return status }
        // Bytes after the trailer (or after a byte that starts no block) are ignored, not kept.
        if scanner.reader.stage != .ended { input.append(bytes) }
        scanner.scan(input)
        try run { try advance() }
        return status
    }

    /// Declares the end of input and returns the first frame composited on the canvas.
    ///
    /// - Throws: `truncated` when the input stops inside a block or before the first image
    ///   (``currentImage()`` still shows what was decoded); `invalidData` for a file with no image.
    ///   Frames complete before a cut stay available from ``nextFrame()``.
    public func finish() throws -> Image {
        if let failure { throw failure }
        inputEnded = true
        let end = input.totalAppended
        guard header != nil else {
            throw ImageDecodingError(.truncated, at: end, "GIF input ended after \(end) bytes, before the Logical Screen Descriptor was complete")
        }
        guard scanner.reader.isWholeFile(totalBytes: end) else {
            throw ImageDecodingError(.truncated, at: end, "GIF input ended inside a block, after \(end) bytes")
        }
        guard firstFrameImage != nil, let image = currentImage() else {
            if scanner.reader.stage == .ended {
                throw ImageDecodingError(.invalidData, at: end, "GIF file has no image before its trailer")
            }
            throw ImageDecodingError(.truncated, at: end, "GIF input ended after \(end) bytes, before the first image")
        }
        finishedCleanly = true
        return image
    }

    /// The first frame as decoded so far (nil before the header): transparent where no row
    /// arrived yet; an interlaced first frame shows each undecoded row as the nearest decoded row above it.
    public func currentImage() -> Image? {
        guard let canvas else { return nil }
        if cachedGeneration == previewGeneration, let cachedImage { return cachedImage }
        var image = firstFrameImage ?? canvas.image()
        if let wanted = options.preferredFormat, wanted != image.format { image = image.converted(to: wanted) }
        cachedImage = image
        cachedGeneration = previewGeneration
        return image
    }

    /// The loop count and canvas once a second image has arrived; nil for a still GIF (so far).
    public var animation: AnimationInfo? {
        guard let canvas, scanner.imageCount >= 2 else { return nil }
        return AnimationInfo(loopCount: scanner.playCount, declaredFrameCount: nil,
                             canvasWidth: canvas.width, canvasHeight: canvas.height)
    }

    /// The next composited frame whose data has all arrived (a still GIF has one frame).
    ///
    /// - Throws: the error of malformed frame data (sticky); after `finish()`, `truncated` when
    ///   the input stopped inside the next frame. Frames returned before stay valid.
    public func nextFrame() throws -> AnimationFrame? {
        if let failure { throw failure }
        try run { try advance() }
        if let frame = readyFrame {
            readyFrame = nil
            return frame
        }
        let end = input.totalAppended
        if inputEnded && !reader.isWholeFile(totalBytes: end) {
            try run { throw ImageDecodingError(.truncated, at: end, "GIF input ended inside frame \(completedFrames) (after \(end) bytes)") }
        }
        return nil
    }

    /// Runs `body`, remembering a thrown error (errors are sticky) and counting preview changes.
    private func run(_ body: () throws -> Void) throws {
        let rowsBefore = firstFrameRows
        defer { if firstFrameRows != rowsBefore { previewGeneration += 1 } }
        do {
            try body()
        } catch let error as ImageDecodingError {
            failure = error
            throw error
        }
    }

    /// Records an oddity that did not stop decoding.
    func warn(_ kind: ImageDecodingError.Kind, at offset: Int, _ message: String) {
        warnings.append(ImageDecodingError(kind, at: offset, message))
    }
}
