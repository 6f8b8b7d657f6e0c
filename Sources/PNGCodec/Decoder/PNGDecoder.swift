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
/// Pixels are not colour-managed; ``metadata`` reports gAMA, cHRM, sRGB, iCCP and the rest.
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
    private enum Stage {
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
        /// Waiting for the CRC of a streamed chunk.
        case chunkCRC(ChunkHeader)
        /// IEND was read; later bytes are ignored.
        case finished
    }

    /// The options in force.
    public let options: DecodingOptions
    /// Known right after IHDR (see the class documentation about its pixel format).
    public private(set) var header: ImageHeader?
    /// Problems that did not stop decoding, e.g. a misplaced or malformed ancillary chunk
    /// that was skipped (libpng's "benign errors"), each with its byte offset.
    public private(set) var warnings: [ImageDecodingError] = []

    private var stage = Stage.signature
    let input = InputBuffer()
    private var chunkCRC = CRC32()
    private var order = ChunkOrder()
    var ihdr: IHDRChunk?
    var palette: Palette?
    var transparencyKey: TransparencyKey?
    var hasTransparency = false
    private var metadataReader: MetadataReader
    var inflater: Inflater?
    var scanlines: ScanlineDecoder?
    var layout: OutputLayout?
    private var failure: ImageDecodingError?
    private var previewGeneration = 0
    private var cachedImage: Image?
    private var cachedGeneration = -1
    private var parserBytesExamined = 0

    /// Makes a decoder.
    public init(options: DecodingOptions = DecodingOptions()) {
        self.options = options
        metadataReader = MetadataReader(limit: options.limits.maxMetadataBytes, verifyChecksums: options.verifyChecksums)
    }

    /// Whether `prefix` starts with the PNG signature (PNG 5.2), for picking a decoder by content.
    public static func matchesSignature(_ prefix: [UInt8]) -> Bool { PNGSignature.isPNG(prefix) }

    /// The ancillary information read so far (gAMA, cHRM, sRGB, iCCP, pHYs, sBIT, bKGD, tIME,
    /// text chunks, eXIf and its orientation).
    public var metadata: PNGMetadata { metadataReader.metadata }

    /// Where decoding stands.
    public var status: DecodingStatus {
        guard header != nil else { return .awaitingHeader }
        let progress = DecodingProgress(completedRows: scanlines?.completedRows ?? 0,
                                        completedScans: scanlines?.completedPasses ?? 0,
                                        previewGeneration: previewGeneration)
        if case .finished = stage { return .complete(progress) }
        return .decoding(progress)
    }

    /// Input bytes examined so far: chunk headers, CRCs and chunk data read by the parser
    /// (IDAT data once, for its CRC) plus the bytes the inflater read. Each byte is counted
    /// where it is read, so this stays O(file size) however the input is split.
    public var inputBytesExamined: Int { parserBytesExamined + (inflater?.inputBytesExamined ?? 0) }

    /// Appends `bytes` and decodes as far as they allow.
    @discardableResult
    public func feed(_ bytes: UnsafeRawBufferPointer) throws -> DecodingStatus {
        if let failure { throw failure }
        if case .finished = stage { return status }
        input.append(bytes)
        let rowsBefore = scanlines?.rowsDecoded ?? 0
        defer {
            if (scanlines?.rowsDecoded ?? 0) != rowsBefore { previewGeneration += 1 }
        }
        do {
            try advance()
        } catch let error as ImageDecodingError {
            failure = error
            throw error
        }
        return status
    }

    /// Declares the end of input: returns the image, or throws `truncated` if the file ended
    /// before IEND (``currentImage()`` still shows every row decoded).
    public func finish() throws -> Image {
        if let failure { throw failure }
        guard case .finished = stage, let image = currentImage() else {
            let error = truncationError()
            failure = error
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
            image = scanlines.canvas.image(orientation: header.orientation, iccProfile: header.iccProfile)
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

    // MARK: - Chunk stream

    /// Runs the stages until the buffered input is used up or IEND is reached.
    private func advance() throws {
        while true {
            let available = input.readable
            switch stage {
            case .signature:
                guard PNGSignature.matches(available) else { throw signatureError(available) }
                guard available.count >= PNGSignature.bytes.count else { return }
                parserBytesExamined += PNGSignature.bytes.count
                input.consume(PNGSignature.bytes.count)
                stage = .chunkHeader
            case .chunkHeader:
                guard available.count >= ChunkHeader.size else { return }
                let chunk = try ChunkHeader.parse(available, at: input.consumedOffset)
                parserBytesExamined += ChunkHeader.size
                chunkCRC = CRC32()
                chunkCRC.update(UnsafeRawBufferPointer(rebasing: available[4..<8]))
                input.consume(ChunkHeader.size)
                stage = try route(chunk)
            case .bufferedChunk(let chunk):
                guard available.count >= chunk.length + ChunkHeader.crcSize else { return }
                let data = UnsafeRawBufferPointer(rebasing: available[0..<chunk.length])
                chunkCRC.update(data)
                try checkCRC(chunk, stored: readUInt32(available, chunk.length))
                parserBytesExamined += chunk.length + ChunkHeader.crcSize
                try process(chunk, data)
                input.consume(chunk.length + ChunkHeader.crcSize)
                if case .finished = stage { return }
                stage = .chunkHeader
            case .imageData(let chunk, let remaining):
                let count = min(remaining, available.count)
                guard count > 0 || remaining == 0 else { return }
                let data = UnsafeRawBufferPointer(rebasing: available[0..<count])
                chunkCRC.update(data)
                parserBytesExamined += count
                if count > 0 { try inflate(data, at: input.consumedOffset) }
                input.consume(count)
                stage = remaining == count ? .chunkCRC(chunk) : .imageData(chunk, remaining: remaining - count)
            case .skippedChunk(let chunk, let remaining):
                let count = min(remaining, available.count)
                guard count > 0 || remaining == 0 else { return }
                chunkCRC.update(UnsafeRawBufferPointer(rebasing: available[0..<count]))
                parserBytesExamined += count
                input.consume(count)
                stage = remaining == count ? .chunkCRC(chunk) : .skippedChunk(chunk, remaining: remaining - count)
            case .chunkCRC(let chunk):
                guard available.count >= ChunkHeader.crcSize else { return }
                try checkCRC(chunk, stored: readUInt32(available, 0))
                parserBytesExamined += ChunkHeader.crcSize
                input.consume(ChunkHeader.crcSize)
                stage = .chunkHeader
            case .finished:
                return
            }
        }
    }

    /// Decides how a chunk is read, after the ordering rules (PNG 5.6).
    private func route(_ chunk: ChunkHeader) throws -> Stage {
        let disposition = try order.admit(chunk, colorType: ihdr?.colorType)
        if chunk.type != .IDAT && order.sawIDAT { try checkImageDataComplete(at: chunk.offset) }
        if case .ignore(let reason) = disposition {
            warn(chunk, reason)
            return .skippedChunk(chunk, remaining: chunk.length)
        }
        switch chunk.type {
        case .IHDR:
            guard chunk.length == IHDRChunk.length else {
                throw ImageDecodingError(.invalidData, at: chunk.offset,
                                         "PNG IHDR declares length \(chunk.length), expected \(IHDRChunk.length)")
            }
            return .bufferedChunk(chunk)
        case .PLTE:
            guard chunk.length <= Palette.maxEntries * 3 else {
                throw ImageDecodingError(.invalidData, at: chunk.offset,
                                         "PNG PLTE declares length \(chunk.length); at most 768 (256 entries) is allowed")
            }
            return .bufferedChunk(chunk)
        case .IDAT:
            try startImageData(at: chunk.offset)
            return .imageData(chunk, remaining: chunk.length)
        case .IEND:
            guard chunk.length == 0 else {
                throw ImageDecodingError(.invalidData, at: chunk.offset, "PNG IEND declares length \(chunk.length); it must be empty")
            }
            return .bufferedChunk(chunk)
        case .tRNS:
            guard chunk.length <= Palette.maxEntries else {
                warn(chunk, "tRNS declares \(chunk.length) bytes, more than any image type allows")
                return .skippedChunk(chunk, remaining: chunk.length)
            }
            return .bufferedChunk(chunk)
        default:
            guard MetadataReader.handles(chunk.type) else { return .skippedChunk(chunk, remaining: chunk.length) }
            let maxLength = metadataReader.maxLength(of: chunk.type)
            guard chunk.length <= maxLength else {
                if [ChunkType.tEXt, .zTXt, .iTXt, .iCCP, .eXIf].contains(chunk.type) {
                    throw ImageDecodingError(.limitExceeded, at: chunk.offset,
                                             "PNG \(chunk.type) declares \(chunk.length) bytes, more than the \(maxLength) bytes of metadata still allowed")
                }
                warn(chunk, "\(chunk.type) declares \(chunk.length) bytes, at most \(maxLength) expected")
                return .skippedChunk(chunk, remaining: chunk.length)
            }
            return .bufferedChunk(chunk)
        }
    }

    /// Uses a whole buffered chunk whose CRC matched.
    private func process(_ chunk: ChunkHeader, _ data: UnsafeRawBufferPointer) throws {
        switch chunk.type {
        case .IHDR:
            let parsed = try IHDRChunk.parse(data, at: chunk.dataOffset, limits: options.limits)
            ihdr = parsed
            refreshHeader()
        case .PLTE:
            guard let ihdr else { return }
            palette = try Palette(plte: data, at: chunk.dataOffset, bitDepth: ihdr.bitDepth)
        case .IEND:
            stage = .finished
        case .tRNS:
            readTransparency(chunk, data)
        default:
            guard let ihdr else { return }
            let disposition = try metadataReader.read(chunk.type, data, at: chunk.dataOffset,
                                                      colorType: ihdr.colorType, bitDepth: ihdr.bitDepth)
            if case .ignore(let reason) = disposition { warn(chunk, reason) }
            refreshHeader()
        }
    }

    /// tRNS (PNG 11.3.2.1): palette alphas or a gray/RGB colour key; not allowed with an alpha channel.
    private func readTransparency(_ chunk: ChunkHeader, _ data: UnsafeRawBufferPointer) {
        guard let ihdr else { return }
        switch ihdr.colorType {
        case .palette:
            guard palette?.applyTransparency(data) == true else {
                return warn(chunk, "tRNS has \(data.count) entries; a palette image needs 1 ... \(palette?.count ?? 0)")
            }
        case .gray, .rgb:
            guard let key = TransparencyKey(data, colorType: ihdr.colorType) else {
                return warn(chunk, "tRNS is \(data.count) bytes, wrong for a \(ihdr.colorType.name) image")
            }
            transparencyKey = key
        case .grayAlpha, .rgba:
            return warn(chunk, "tRNS in an image that has an alpha channel")
        }
        hasTransparency = true
        refreshHeader()
    }

    /// Checks a chunk's CRC-32 (PNG 5.3: over type and data) unless checks are off.
    private func checkCRC(_ chunk: ChunkHeader, stored: UInt32) throws {
        guard options.verifyChecksums else { return }
        let computed = chunkCRC.value
        guard computed == stored else {
            throw ImageDecodingError(.checksumMismatch, at: chunk.crcOffset,
                                     "PNG \(chunk.type) chunk CRC is \(hex32(stored)), computed \(hex32(computed))")
        }
    }

    private func warn(_ chunk: ChunkHeader, _ reason: String) {
        warnings.append(ImageDecodingError(.invalidData, at: chunk.offset, "PNG \(chunk.type) skipped: \(reason)"))
    }

    /// Publishes the header (and bumps the preview generation when what it says changes).
    private func refreshHeader() {
        guard let ihdr else { return }
        let newLayout = OutputLayout(header: ihdr, hasTransparency: hasTransparency, preferred: options.preferredFormat)
        let meta = metadataReader.metadata
        let newHeader = ImageHeader(fileFormat: .png, width: ihdr.width, height: ihdr.height,
                                    pixelFormat: newLayout.delivered, bitDepth: ihdr.bitDepth,
                                    isProgressive: ihdr.isInterlaced, orientation: meta.orientation,
                                    iccProfile: meta.iccProfile)
        // After image data starts the canvas format is fixed: a late tRNS was already refused by the ordering rules.
        if scanlines == nil { layout = newLayout }
        if newHeader != header {
            header = newHeader
            previewGeneration += 1
        }
    }

    private func signatureError(_ found: UnsafeRawBufferPointer) -> ImageDecodingError {
        let (offset, message) = PNGSignature.describeMismatch(found)
        return ImageDecodingError(.invalidSignature, at: offset, message)
    }
}

/// Eight lower-case hex digits.
func hex32(_ value: UInt32) -> String {
    (0..<4).map { hex(UInt8(truncatingIfNeeded: value >> UInt32(24 - 8 * $0))) }.joined()
}
