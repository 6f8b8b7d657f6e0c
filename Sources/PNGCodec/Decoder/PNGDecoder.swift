import ColorManagement
import Deflate
import ImageCore

/// Decodes a PNG file (W3C PNG 2nd edition: every colour type and bit depth, PLTE, tRNS,
/// Adam7, any IDAT split) incrementally: feed bytes as they arrive and take
/// ``currentImage()`` at any moment.
///
/// Work is O(total bytes) however the input is split: bytes are copied once into one
/// ``InputBuffer``; each chunk header is parsed once; IDAT data goes into the inflater as it
/// arrives (the CRC is updated as bytes pass and checked at the chunk's end) and each row is
/// unfiltered as soon as its last byte is inflated.
///
/// Output is the file's natural format (palette → rgb8/rgba8, gray below 8 bits → gray8 by bit
/// replication, tRNS → alpha, 16-bit stays 16-bit) or ``DecodingOptions/preferredFormat``.
/// Pixels are the file's own unless ``DecodingOptions/colorSpace`` is `.sRGB` (then cICP, iCCP,
/// sRGB, or gAMA + cHRM convert them); ``metadata`` reports those chunks and the rest.
///
/// ``header`` is known right after IHDR. Its pixel format is final once image data starts:
/// a tRNS chunk (which PNG places between IHDR and IDAT) adds an alpha channel.
///
/// ```swift
/// let decoder = PNGDecoder()
/// for piece in download { try decoder.feed(piece); show(decoder.currentImage()) }
/// let image = try decoder.finish()
/// ```
public final class PNGDecoder: IncrementalImageDecoder {
    /// Where the parser stands in the chunk stream (PNG 5.3 chunk layout).
    enum Stage {
        /// Waiting for the 8 signature bytes.
        case signature
        /// Waiting for a chunk's length and type.
        case chunkHeader
        /// Waiting for a whole small chunk (data and CRC), then parsing it.
        case bufferedChunk(ChunkHeader)
        /// Streaming IDAT data into the inflater; `remaining` data bytes to go.
        case imageData(ChunkHeader, remaining: Int)
        /// Passing over a chunk that is not used (CRC still checked).
        case skippedChunk(ChunkHeader, remaining: Int)
        /// Reading an APNG fdAT chunk: its sequence number while `remaining` is the whole
        /// length, then frame data queued for ``nextFrame()``.
        case animationData(ChunkHeader, remaining: Int)
        /// Waiting for the CRC of a streamed chunk.
        case chunkCRC(ChunkHeader)
        /// IEND was read; later bytes are ignored.
        case finished

        /// The bytes the parser reads at once in this stage (what its guard in `advance()` waits
        /// for): a chunk header's, a chunk read whole (data and CRC), a CRC; nil in the stages
        /// that go on as bytes come (the signature, checked as it arrives; streamed chunk data).
        var bytesReadAtOnce: Int? {
            switch self {
            case .chunkHeader: return ChunkHeader.size
            case .bufferedChunk(let chunk): return chunk.length + ChunkHeader.crcSize
            case .chunkCRC: return ChunkHeader.crcSize
            default: return nil
            }
        }
    }

    /// The options in force.
    public let options: DecodingOptions
    /// Known right after IHDR (see the class documentation about its pixel format).
    @exclusivity(unchecked) public internal(set) var header: ImageHeader?
    /// Problems that did not stop decoding, e.g. a misplaced or malformed ancillary chunk
    /// that was skipped (libpng's "benign errors"), each with its byte offset.
    public internal(set) var warnings: [ImageDecodingError] = []

    // `@exclusivity(unchecked)` on the state touched on every `feed`: a decoder is used by one
    // thread at a time and no method hands out overlapping accesses to it, so the runtime's
    // dynamic exclusivity checks (a call into the runtime per access the optimiser cannot see
    // through) are pure per-call cost when input arrives in small pieces.
    @exclusivity(unchecked) var stage = Stage.signature
    let input = InputBuffer()
    @exclusivity(unchecked) var chunkCRC = CRC32()
    var order = ChunkOrder()
    var ihdr: IHDRChunk?
    var palette: Palette?
    var transparencyKey: TransparencyKey?
    var hasTransparency = false
    var metadataReader: MetadataReader
    var inflater: Inflater?
    @exclusivity(unchecked) var scanlines: (any ScanlineStage)?
    /// Images of at least this many pixels are drawn on a second thread when ``DecodingOptions/maximumThreads``
    /// allows (tests lower it to run small files through ``ScanlinePipeline``).
    var twoThreadMinimumPixels = ScanlinePipeline.minimumPixels
    var layout: OutputLayout?
    /// The animation of an APNG, from a valid acTL on (see PNGDecoder+Animation.swift).
    @exclusivity(unchecked) var apng: APNGAnimation?
    @exclusivity(unchecked) var failure: ImageDecodingError?
    @exclusivity(unchecked) var previewGeneration = 0
    private var cachedImage: Image?
    private var cachedGeneration = -1
    @exclusivity(unchecked) var parserBytesExamined = 0
    /// When IDAT bytes are inflated, and the few that wait for that (see ``ImageDataHandOver``).
    @usableFromInline let handOver = ImageDataHandOver()
    /// ``status`` when `feed` last decoded: what it answers while bytes only wait.
    @usableFromInline @exclusivity(unchecked) var statusAfterLastStep = DecodingStatus.awaitingHeader
    var colorOutput: SRGBOutputStage

    /// Makes a decoder.
    public init(options: DecodingOptions = DecodingOptions()) {
        self.options = options
        colorOutput = SRGBOutputStage(options: options)
        metadataReader = MetadataReader(limit: options.limits.maxMetadataBytes, verifyChecksums: options.verifyChecksums)
    }

    /// Whether `prefix` starts with the PNG signature (PNG 5.2), for picking a decoder by content.
    public static func matchesSignature(_ prefix: [UInt8]) -> Bool { PNGSignature.isPNG(prefix) }

    /// The ancillary information read so far (gAMA, cHRM, sRGB, iCCP, pHYs, sBIT, bKGD, tIME,
    /// text chunks, eXIf and its orientation).
    public var metadata: PNGMetadata { metadataReader.metadata }

    /// Where decoding stands.
    public var status: DecodingStatus {
        // Not `header != nil`: that compares two optional headers field by field (arrays included).
        if case .none = header { return .awaitingHeader }
        let progress = DecodingProgress(completedRows: scanlines?.completedRows ?? 0,
                                        completedScans: scanlines?.completedPasses ?? 0,
                                        previewGeneration: previewGeneration)
        if case .finished = stage { return .complete(progress) }
        return .decoding(progress)
    }

    /// Input bytes examined so far: chunk headers, CRCs and chunk data read by the parser
    /// (IDAT data once, for its CRC) plus the bytes the inflater read. Each byte is counted
    /// where it is read, so this stays O(file size) however the input is split.
    public var inputBytesExamined: Int {
        parserBytesExamined + (inflater?.inputBytesExamined ?? 0) + (apng?.assembler.inflatedBytesExamined ?? 0)
    }

    /// Appends `bytes` and decodes as far as they allow: IDAT data up to the last hand-over
    /// point (a multiple of a granule of 1 … 256 bytes, or an IDAT chunk's end; see
    /// ``ImageDataHandOver``), everything else completely.
    @inlinable @discardableResult
    public func feed(_ bytes: UnsafeRawBufferPointer) throws -> DecodingStatus {
        // A byte short of the next hand-over point waits, here in the caller's code: a
        // byte-at-a-time caller pays a compare and a store for it. (After a failure no byte
        // waits: the slow path throws it.)
        if bytes.count == 1, let base = bytes.baseAddress, handOver.wait(byte: base.load(as: UInt8.self)) {
            return statusAfterLastStep
        }
        return try feedPiece(bytes)
    }

    /// ``feed(_:)`` past its one-byte fast path.
    @usableFromInline
    func feedPiece(_ bytes: UnsafeRawBufferPointer) throws -> DecodingStatus {
        if let failure { throw failure }
        // Short of the next hand-over point: the bytes wait, and nothing else can change.
        if handOver.wait(bytes) { return statusAfterLastStep }
        if case .finished = stage { return status }
        try decodingStep {
            var rest = bytes
            moveParserBytesToInput()
            input.skipUnbuffered(handOver.takeUncounted())
            if handOver.waitingCount > 0, case .imageData(let chunk, let remaining) = stage {
                // These bytes reach the hand-over point: the waiting ones and those up to the point go first.
                let topUp = handOver.room
                let data = handOver.fillToPoint(from: rest)
                input.skipUnbuffered(topUp)
                try streamImageData(chunk, remaining: remaining, from: data, count: data.count, at: input.consumedOffset - data.count)
                handOver.clear()
                rest = UnsafeRawBufferPointer(start: rest.baseAddress.map { $0 + topUp }, count: rest.count - topUp)
            }
            if input.readableCount == 0, case .imageData(let chunk, let remaining) = stage, remaining > 0 {
                // The usual piece of a download: IDAT data, inflated straight from the caller's
                // bytes instead of being copied into `input` first.
                let count = handOver.count(available: rest.count, remaining: remaining, at: input.consumedOffset)
                if count > 0 {
                    try streamImageData(chunk, remaining: remaining, from: rest, count: count, at: input.consumedOffset)
                    input.skipUnbuffered(count)
                    rest = UnsafeRawBufferPointer(start: rest.baseAddress.map { $0 + count }, count: rest.count - count)
                }
            }
            input.append(rest)
            try advance()
            if case .imageData(_, let remaining) = stage {
                // What is left (short of a hand-over point) waits outside the input buffer.
                let leftover = input.readable
                handOver.settle(leftover: leftover, at: input.consumedOffset, remaining: remaining)
                input.consume(leftover.count)
            } else {
                handOver.clear()
                let need = parserNeed
                if need > 1 { handOver.holdForParser(need: need) }
            }
        }
        statusAfterLastStep = status
        return statusAfterLastStep
    }

    /// How many more bytes the parser needs before its next step (``Stage/bytesReadAtOnce``
    /// less those buffered); 0 in the stages that take bytes as they come.
    var parserNeed: Int {
        guard let whole = stage.bytesReadAtOnce else { return 0 }
        return whole - input.readableCount
    }

    /// Appends the bytes that waited for the parser (see ``ImageDataHandOver/holdForParser(need:)``)
    /// to the input buffer, behind the bytes already there. Bytes wait for the parser in every
    /// stage but IDAT data, whose waiting bytes go to the inflater; the stage does not change
    /// while they wait (only a call that runs the parser changes it).
    func moveParserBytesToInput() {
        guard handOver.waitingCount > 0 else { return }
        if case .imageData = stage { return }
        input.append(handOver.waitingBytes)
        handOver.clear()
    }

    /// Runs one decoding step: moves ``status``'s `previewGeneration` on if it decoded rows, and
    /// keeps an error it throws (errors are sticky; an APNG's frames stop there too).
    func decodingStep(_ body: () throws -> Void) throws {
        let rowsBefore = scanlines?.rowsDecoded ?? 0
        defer {
            if (scanlines?.rowsDecoded ?? 0) != rowsBefore { previewGeneration += 1 }
        }
        do {
            try body()
        } catch let error as ImageDecodingError {
            failure = error
            handOver.clear()
            apng?.stop(with: error)
            throw error
        }
    }

    /// Declares the end of input: returns the image, or throws `truncated` if the file ended
    /// before IEND (``currentImage()`` still shows every row decoded).
    public func finish() throws -> Image {
        if let failure { throw failure }
        // Bytes that waited for the parser cannot complete its step (see ``parserNeed``), but
        // the error for a file cut short points past them.
        moveParserBytesToInput()
        try handOverWaitingImageData()
        guard case .finished = stage, let image = currentImage() else {
            let error = truncationError()
            failure = error
            handOver.clear()
            apng?.stop(with: error)
            throw error
        }
        return image
    }

    /// The picture so far, nil before IHDR. Rows not received yet are zero (black, transparent);
    /// Adam7 images show each received pixel over the block it stands for until finer passes arrive.
    public func currentImage() -> Image? {
        guard let header, let layout else { return nil }
        if cachedGeneration == previewGeneration, let cachedImage { return cachedImage }
        var image: Image
        if let scanlines {
            image = convertedForOutput(scanlines.picture(orientation: header.orientation, iccProfile: header.iccProfile))
            if image.format != layout.delivered { image = image.converted(to: layout.delivered) }
        } else {
            image = Image(blankWidth: header.width, height: header.height, format: layout.delivered)
            image.orientation = header.orientation
            image.iccProfile = header.iccProfile
        }
        cachedImage = image
        cachedGeneration = previewGeneration
        return image
    }
}

/// Eight lower-case hex digits.
func hex32(_ value: UInt32) -> String {
    (0..<4).map { hex(UInt8(truncatingIfNeeded: value >> UInt32(24 - 8 * $0))) }.joined()
}
