import ColorManagement
import ImageCore

/// Decodes a WebP file (RIFF container with a lossless `VP8L` or lossy `VP8 ` image, `VP8X`
/// extended header, `ALPH` alpha, `ICCP` and `EXIF` metadata) incrementally: feed bytes as they
/// arrive and take ``currentImage()`` at any moment.
///
/// Work is O(total bytes) however the input is split: bytes are copied once into one
/// ``InputBuffer``; chunk headers are parsed once; image data goes to the bitstream decoder as
/// it arrives, which stops between symbols (lossless) when the input runs out and resumes there.
///
/// Output is `rgba8` when libwebp reports alpha (the VP8L alpha hint, or an `ALPH` chunk or the
/// `VP8X` alpha flag for lossy images) and `rgb8` otherwise, with the pixels `dwebp` writes by
/// default. ``header`` is known once the image's size is (the `VP8X` chunk or the bitstream
/// header); its orientation and ICC profile fill in when their chunks arrive.
///
/// ```swift
/// let decoder = WebPDecoder()
/// for piece in download { try decoder.feed(piece); show(decoder.currentImage()) }
/// let image = try decoder.finish()
/// ```
public final class WebPDecoder: IncrementalImageDecoder {
    /// Where the parser stands in the RIFF chunk stream.
    enum Stage {
        /// Waiting for `RIFF`, the size and `WEBP` (12 bytes).
        case riffHeader
        /// Waiting for the next chunk's 8-byte header.
        case chunkHeader
        /// Waiting for a whole small chunk (`VP8X`), then parsing it.
        case bufferedChunk(RIFFChunkHeader)
        /// Collecting a chunk's payload as it arrives (`ALPH`, `ICCP`, `EXIF`).
        case collecting(RIFFChunkHeader, [UInt8])
        /// Streaming an image chunk into its bitstream decoder.
        case image(RIFFChunkHeader, WebPFrameDecoder)
        /// Passing over `remaining` bytes (an unused chunk, or a padding byte).
        case skipping(remaining: Int)
        /// The RIFF payload has ended; later bytes are ignored.
        case finished
    }

    /// The RIFF header: "RIFF", payload size, "WEBP".
    static let riffHeaderSize = 12

    /// The options in force.
    public let options: DecodingOptions
    /// Known once the image size is (see the class documentation).
    public internal(set) var header: ImageHeader?

    var stage = Stage.riffHeader
    let input = InputBuffer()
    /// The piece being fed, while the parser reads it in place (nothing was buffered), and how
    /// much of it the parser has used; see ``feed(_:)``.
    var unbuffered: UnsafeRawBufferPointer?
    var unbufferedUsed = 0
    /// File offset where the RIFF payload ends (8 + the RIFF size).
    var riffEnd = 0
    var chunksSeen = 0
    var extendedHeader: VP8XHeader?
    var alphaData: [UInt8]?
    var frame: WebPFrameDecoder?
    /// Set for a file whose VP8X flags say it is animated.
    var animationState: AnimationState?
    var failure: ImageDecodingError?
    var previewGeneration = 0
    var parserBytesExamined = 0
    /// Metadata read before ``header`` exists, applied when it is made.
    var pendingOrientation: Orientation?
    var pendingICCProfile: [UInt8]?
    private var cachedImage: Image?
    private var cachedGeneration = -1
    /// The conversion to sRGB when ``DecodingOptions/colorSpace`` asks for it.
    var colorOutput: SRGBOutputStage
    /// Problems that did not stop decoding: an ICC profile that could not be used for
    /// ``DecodingOptions/colorSpace`` `.sRGB` (the pixels are then left as decoded).
    public internal(set) var warnings: [ImageDecodingError] = []

    /// Makes a decoder.
    public init(options: DecodingOptions = DecodingOptions()) {
        self.options = options
        colorOutput = SRGBOutputStage(options: options)
    }

    /// Whether `prefix` starts like a WebP file: `RIFF`, 4 size bytes, `WEBP`.
    public static func matchesSignature(_ prefix: [UInt8]) -> Bool {
        prefix.count >= 12 && prefix[0..<4].elementsEqual("RIFF".utf8) && prefix[8..<12].elementsEqual("WEBP".utf8)
    }

    /// Where decoding stands: complete once every row is decoded.
    public var status: DecodingStatus {
        guard let header else { return .awaitingHeader }
        if let animationState {
            let progress = DecodingProgress(completedRows: animationState.firstFrame == nil ? 0 : header.height,
                                            completedScans: 0, previewGeneration: previewGeneration)
            if case .finished = stage, animationState.firstFrame != nil { return .complete(progress) }
            return .decoding(progress)
        }
        let progress = DecodingProgress(completedRows: frame?.completedRows ?? 0, completedScans: 0,
                                        previewGeneration: previewGeneration)
        if frame?.isComplete == true { return .complete(progress) }
        return .decoding(progress)
    }

    /// Chunk headers and buffered chunk payloads read by the parser plus the bytes the
    /// bitstream decoder examined: each counted where read, so O(file size) for any split.
    public var inputBytesExamined: Int { parserBytesExamined + (frame?.bytesExamined ?? 0) }

    /// Appends `bytes` and decodes as far as they allow.
    @discardableResult
    public func feed(_ bytes: UnsafeRawBufferPointer) throws -> DecodingStatus {
        if let failure { throw failure }
        if case .finished = stage { return status }
        if input.readableCount == 0 {
            // Nothing buffered: the parser reads the piece in place and only what it leaves is
            // copied, so a whole file fed at once is never copied (2 MB less fresh memory for a
            // 1440×960 lossless photo, whose pages cost more than the copy itself).
            unbuffered = bytes
            unbufferedUsed = 0
        } else {
            input.append(bytes)
        }
        defer {
            if unbuffered != nil {
                let used = unbufferedUsed
                unbuffered = nil
                unbufferedUsed = 0
                input.skipUnbuffered(used)
                input.append(UnsafeRawBufferPointer(rebasing: bytes[used...]))
            }
        }
        let rowsBefore = frame?.completedRows ?? 0
        defer {
            if (frame?.completedRows ?? 0) != rowsBefore { previewGeneration += 1 }
        }
        do {
            try advance()
        } catch {
            failure = error
            throw error
        }
        return status
    }

    /// Declares the end of input: returns the image, or throws `truncated` if the file ended
    /// before the image was complete (``currentImage()`` still shows every row decoded).
    /// Metadata chunks cut off after a complete image are not an error (libwebp ignores them).
    public func finish() throws -> Image {
        if let failure { throw failure }
        if animationState != nil {
            // As for a still image: the first frame's work put off for more data is done now.
            if case .collecting(let chunk, let bytes) = stage, chunk.tag == .anmf {
                do {
                    try streamFirstFrame(bytes, declaredSize: chunk.size, at: chunk.payloadOffset, force: true)
                } catch {
                    failure = error
                    throw error
                }
            }
            guard case .finished = stage, let image = currentImage() else {
                let error = ImageDecodingError(.truncated, at: input.totalAppended, truncationMessage())
                failure = error
                throw error
            }
            return image
        }
        // Work put off until more input came (a header or macroblock row retried only once its
        // data doubled) is done now, so the result does not depend on how the input was split.
        if case .image(let chunk, let frame) = stage, !frame.isComplete {
            let window = UnsafeRawBufferPointer(rebasing: input.readable[0..<min(input.readableCount, chunk.size - frame.consumed)])
            do {
                input.consume(try frame.run(window: window, force: true))
            } catch {
                failure = error
                throw error
            }
            previewGeneration += 1
        }
        guard let frame, frame.isComplete, let image = currentImage() else {
            let error = ImageDecodingError(.truncated, at: input.totalAppended, truncationMessage())
            failure = error
            throw error
        }
        return image
    }

    /// The picture so far, nil before the size is known. Rows not decoded yet are zero
    /// (black, transparent).
    public func currentImage() -> Image? {
        guard let header else { return nil }
        if cachedGeneration == previewGeneration, let cachedImage,
           cachedImage.orientation == header.orientation, cachedImage.iccProfile == header.iccProfile {
            return cachedImage
        }
        var image: Image
        if let first = animationState?.firstFrame {
            image = first
        } else if let preview = firstFramePreview {
            image = preview
        } else if let frame, frame.hasHeader {
            image = Image(width: frame.width, height: frame.height, format: frame.format, pixels: frame.pixels)
        } else {
            image = Image(blankWidth: header.width, height: header.height, format: header.pixelFormat)
        }
        if image.format != header.pixelFormat { image = image.converted(to: header.pixelFormat) }
        image.orientation = header.orientation
        image.iccProfile = header.iccProfile
        image = convertedForOutput(image)
        cachedImage = image
        cachedGeneration = previewGeneration
        return image
    }

    private func truncationMessage() -> String {
        switch stage {
        case .riffHeader: return "the input ended inside the 12-byte RIFF header"
        case .image(let chunk, let frame):
            return "the input ended inside the \(chunk.tag) chunk after \(frame.completedRows) of \(frame.height) rows"
        default:
            return "the input ended before the image data was complete"
        }
    }
}
