import ImageCore

extension WebPDecoder {
    /// Runs the chunk parser as far as the buffered input allows (WebP container spec).
    func advance() throws(ImageDecodingError) {
        while true {
            let available = readableInput
            let offset = input.consumedOffset + unbufferedUsed
            switch stage {
            case .riffHeader:
                guard available.count >= Self.riffHeaderSize else { return }
                try parseRIFFHeader(available, at: offset)
                consume(Self.riffHeaderSize, examined: true)
                stage = .chunkHeader

            case .chunkHeader:
                if offset >= riffEnd {
                    guard frame != nil || animationState?.firstFrame != nil else {
                        throw ImageDecodingError(.invalidData, at: offset, "the RIFF payload ends without a VP8 or VP8L image chunk")
                    }
                    stage = .finished
                    consumeInput(available.count)
                    return
                }
                guard available.count >= RIFFChunkHeader.byteCount else { return }
                let chunk = RIFFChunkHeader(available, at: offset)
                consume(RIFFChunkHeader.byteCount, examined: true)
                try beginChunk(chunk)

            case .bufferedChunk(let chunk):
                guard available.count >= chunk.size else { return }
                try parseBufferedChunk(chunk, UnsafeRawBufferPointer(rebasing: available[0..<chunk.size]))
                consume(chunk.size, examined: true)
                endChunk(chunk)

            case .collecting(let chunk, var bytes):
                // Drop the stage's reference first, so the append grows `bytes` in place
                // instead of copying it (which would make byte-by-byte feeding quadratic).
                stage = .finished
                let take = min(available.count, chunk.size - bytes.count)
                bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: available[0..<take]))
                consume(take, examined: true)
                guard bytes.count == chunk.size else {
                    if chunk.tag == .anmf { try streamFirstFrame(bytes, declaredSize: chunk.size, at: chunk.payloadOffset) }
                    stage = .collecting(chunk, bytes)
                    return
                }
                try collected(chunk, bytes)
                endChunk(chunk)

            case .image(let chunk, let frame):
                let remaining = chunk.size - frame.consumed
                let window = UnsafeRawBufferPointer(rebasing: available[0..<min(available.count, remaining)])
                let used: Int
                do {
                    used = try frame.run(window: window)
                } catch {
                    // Rows decoded before the damage stay visible.
                    publishFrameHeader(frame)
                    throw error
                }
                consumeInput(used)
                publishFrameHeader(frame)
                if frame.isComplete {
                    // Bytes of the chunk after the image's last symbol are ignored.
                    stage = .skipping(remaining: chunk.paddedSize - frame.consumed)
                    continue
                }
                return

            case .skipping(let remaining):
                let take = min(available.count, remaining)
                consume(take, examined: false)
                guard take == remaining else {
                    stage = .skipping(remaining: remaining - take)
                    return
                }
                stage = .chunkHeader

            case .finished:
                consumeInput(available.count)
                return
            }
        }
    }

    private func consume(_ count: Int, examined: Bool) {
        consumeInput(count)
        if examined { parserBytesExamined += count }
    }

    /// The bytes the parser has not used: the rest of the piece read in place, or the buffer's.
    private var readableInput: UnsafeRawBufferPointer {
        guard let unbuffered else { return input.readable }
        return UnsafeRawBufferPointer(rebasing: unbuffered[unbufferedUsed...])
    }

    /// Marks `count` bytes of ``readableInput`` used (clamped to what is readable).
    private func consumeInput(_ count: Int) {
        guard let unbuffered else { return input.consume(count) }
        unbufferedUsed += min(max(count, 0), unbuffered.count - unbufferedUsed)
    }

    /// After a chunk's payload: skip its padding byte, if any.
    private func endChunk(_ chunk: RIFFChunkHeader) {
        stage = chunk.paddedSize > chunk.size ? .skipping(remaining: 1) : .chunkHeader
    }

    /// "RIFF", size, "WEBP" (container spec, "RIFF Header"); libwebp's size checks.
    private func parseRIFFHeader(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws(ImageDecodingError) {
        let first = WebPChunkTag(bytes[0], bytes[1], bytes[2], bytes[3])
        let form = WebPChunkTag(bytes[8], bytes[9], bytes[10], bytes[11])
        guard first == .riff, form == .webp else {
            throw ImageDecodingError(.invalidSignature, at: offset,
                                     "a WebP file starts with RIFF....WEBP; found \(first)....\(form)")
        }
        let size = Int(littleEndian32(bytes, 4))
        // The form type and one chunk header at least: 4 + 8 = 12.
        guard size >= 12 else {
            throw ImageDecodingError(.invalidData, at: offset + 4, "RIFF size \(size) is too small to hold a chunk (at least 12)")
        }
        riffEnd = 8 + size
    }

    /// Decides what to do with a chunk from its header.
    private func beginChunk(_ chunk: RIFFChunkHeader) throws(ImageDecodingError) {
        let headerOffset = chunk.payloadOffset - RIFFChunkHeader.byteCount
        guard chunk.size <= riffEnd - chunk.payloadOffset else {
            throw ImageDecodingError(.invalidData, at: headerOffset,
                                     "\(chunk.tag) chunk of \(chunk.size) bytes runs past the RIFF end at byte \(riffEnd)")
        }
        chunksSeen += 1
        let isFirst = chunksSeen == 1
        if isFirst, chunk.tag != .vp8, chunk.tag != .vp8l, chunk.tag != .vp8x {
            throw ImageDecodingError(.invalidData, at: headerOffset,
                                     "the first WebP chunk must be VP8, VP8L or VP8X; found \(chunk.tag)")
        }
        switch chunk.tag {
        case .vp8x where isFirst:
            guard chunk.size == VP8XHeader.size else {
                throw ImageDecodingError(.invalidData, at: headerOffset, "VP8X chunk size is \(chunk.size), expected 10")
            }
            stage = .bufferedChunk(chunk)
        case .anim where animationState != nil:
            guard chunk.size >= 6 else {
                throw ImageDecodingError(.invalidData, at: headerOffset, "ANIM chunk size is \(chunk.size), expected 6")
            }
            stage = .bufferedChunk(chunk)
        case .anmf where animationState != nil:
            stage = .collecting(chunk, [])
        case .vp8 where frame == nil && animationState == nil, .vp8l where frame == nil && animationState == nil:
            let bitstream: WebPFrameDecoder.Bitstream = chunk.tag == .vp8l ? .lossless : .lossy(alpha: alphaData)
            let required = extendedHeader.map { (width: $0.canvasWidth, height: $0.canvasHeight) }
            // libwebp's has_alpha: the VP8L hint for lossless; for lossy an ALPH chunk or the VP8X flag.
            let frame = WebPFrameDecoder(bitstream: bitstream, limits: options.limits, payloadOffset: chunk.payloadOffset,
                                         payloadSize: chunk.size, requiredSize: required,
                                         alwaysAlpha: chunk.tag == .vp8 && extendedHeader?.hasAlpha == true)
            self.frame = frame
            stage = .image(chunk, frame)
        case .alph where frame == nil, .iccp, .exif:
            if chunk.tag != .alph, chunk.size > options.limits.maxMetadataBytes {
                throw ImageDecodingError(.limitExceeded, at: headerOffset,
                                         "\(chunk.tag) chunk of \(chunk.size) bytes exceeds the metadata limit \(options.limits.maxMetadataBytes)")
            }
            stage = .collecting(chunk, [])
        default:
            stage = .skipping(remaining: chunk.paddedSize)
        }
    }

    /// A small chunk whose payload is all buffered.
    private func parseBufferedChunk(_ chunk: RIFFChunkHeader, _ payload: UnsafeRawBufferPointer) throws(ImageDecodingError) {
        if chunk.tag == .anim, let animationState {
            // Background colour (B, G, R, A; libwebp's compositor does not use it), loop count.
            animationState.info.loopCount = Int(payload[4]) | Int(payload[5]) << 8
            return
        }
        guard chunk.tag == .vp8x else { return }
        let vp8x = VP8XHeader(payload)
        _ = try checkedDimensions(vp8x.canvasWidth, vp8x.canvasHeight, at: chunk.payloadOffset)
        extendedHeader = vp8x
        if vp8x.isAnimated {
            animationState = AnimationState(canvasWidth: vp8x.canvasWidth, canvasHeight: vp8x.canvasHeight)
            publishHeader(width: vp8x.canvasWidth, height: vp8x.canvasHeight, format: options.preferredFormat ?? .rgba8)
            return
        }
        publishHeader(width: vp8x.canvasWidth, height: vp8x.canvasHeight,
                      format: options.preferredFormat ?? (vp8x.hasAlpha ? .rgba8 : .rgb8))
    }

    /// A collected chunk's whole payload.
    private func collected(_ chunk: RIFFChunkHeader, _ payload: [UInt8]) throws(ImageDecodingError) {
        switch chunk.tag {
        case .alph:
            alphaData = payload
        case .anmf:
            try receivedAnimationFrame(payload, at: chunk.payloadOffset)
        case .iccp:
            header?.iccProfile = payload
            pendingICCProfile = payload
        case .exif:
            if let orientation = WebPExif.orientation(payload) {
                header?.orientation = orientation
                pendingOrientation = orientation
            }
        default:
            break
        }
    }

    /// libwebp's `has_alpha` for the image being decoded: the VP8L hint, or for VP8 the VP8X
    /// flag or an ALPH chunk.
    private func pixelFormat(_ frame: WebPFrameDecoder) -> PixelFormat {
        options.preferredFormat ?? frame.format
    }

    private func checkedDimensions(_ width: Int, _ height: Int, at offset: Int) throws(ImageDecodingError) -> Int {
        do {
            return try options.limits.checkDimensions(width: width, height: height, at: offset, format: "WebP")
        } catch let error as ImageDecodingError {
            throw error
        } catch {
            throw ImageDecodingError(.internal, at: offset, "unexpected error \(error)")
        }
    }

    /// Makes ``header`` match the bitstream's own header once it is read.
    private func publishFrameHeader(_ frame: WebPFrameDecoder) {
        guard frame.hasHeader else { return }
        let format = pixelFormat(frame)
        if header == nil || header?.width != frame.width || header?.height != frame.height || header?.pixelFormat != format {
            publishHeader(width: frame.width, height: frame.height, format: format)
        }
    }

    /// Sets or updates ``header`` (the pixel format can change once the bitstream header is read).
    private func publishHeader(width: Int, height: Int, format: PixelFormat) {
        header = ImageHeader(fileFormat: .webp, width: width, height: height, pixelFormat: format, bitDepth: 8,
                             isProgressive: false, orientation: pendingOrientation ?? .up, iccProfile: pendingICCProfile)
        previewGeneration += 1
    }
}
