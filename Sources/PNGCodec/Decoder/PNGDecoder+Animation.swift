import ImageCore

/// APNG (the animated PNG extension): the chunk parser's hooks for acTL, fcTL and fdAT, and
/// frames through ``AnimatedImageDecoder``.
///
/// The parser reads animation chunks as it meets them, checks them (``APNGChunkReader``) and
/// queues them with a copy of the frame data (``APNGEventQueue``); ``nextFrame()`` decodes and
/// composites from there (``APNGFrameAssembler``). So the default image decodes exactly as for
/// a still PNG, frames cost nothing until asked for, and a frame is available as soon as its
/// last fdAT chunk has arrived.
extension PNGDecoder: AnimatedImageDecoder {
    /// Loop count, declared frame count and canvas of an APNG, from its acTL chunk; nil for a
    /// still PNG (no acTL before IDAT, or one that is invalid).
    public var animation: AnimationInfo? { apng?.info }

    /// The next composited frame of an APNG whose data has all arrived; nil if there is none
    /// yet, or the file is not animated.
    ///
    /// Frames are the canvas (IHDR's size) in rgba8, or rgba16 for 16-bit files unless
    /// ``DecodingOptions/preferredFormat`` asks for 8 bits, after the frame's region was drawn
    /// (`blend_op`) and before its `dispose_op` runs. When the IDAT image is part of the
    /// animation it is frame 0; when its fcTL comes after IDAT it is not a frame at all.
    /// `region`/`regionImage` give the frame's own pixels; `disposal` is the effective one (a
    /// `.previous` first frame is reported as `.background`, as the spec treats it).
    ///
    /// - Throws: a broken animation chunk (bad sequence number, region outside the canvas,
    ///   missing fdAT, frame count unlike acTL's, bad frame data) as `invalidData`, a bad CRC on
    ///   fcTL/fdAT as `checksumMismatch`, an input cut before IEND (after `finish()`) as
    ///   `truncated`, each at its byte offset, once the frames before it have been returned.
    ///   Sticky. ``currentImage()`` and ``finish()`` still give the default image.
    public func nextFrame() throws -> AnimationFrame? {
        // Nothing is taken before acTL: an fcTL read before it may yet turn out to belong to a still image.
        guard let apng, apng.isDeclared, !apng.isRejected else { return nil }
        return try nextFrame(of: apng)
    }

    /// ``nextFrame()`` of a declared animation. Apart, so that the call a still PNG answers after
    /// every `feed` does not set up this one's frame.
    @inline(never)
    private func nextFrame(of apng: APNGAnimation) throws -> AnimationFrame? {
        guard let ihdr else { return nil }
        let source = APNGFrameSource(header: ihdr, palette: palette, key: hasTransparency ? transparencyKey : nil,
                                     hasTransparency: hasTransparency, options: options,
                                     format: APNGFrameSource.format(bitDepth: ihdr.bitDepth, preferred: options.preferredFormat))
        return try apng.assembler.next(from: &apng.events, source: source).map(convertedForOutput)
    }

    /// How the parser reads an animation chunk (nil: not one, go on as before). Also tells the
    /// reader where IDAT starts and IEND comes.
    func routeAnimationChunk(_ chunk: ChunkHeader) -> Stage? {
        switch chunk.type {
        case .acTL:
            if order.sawIDAT {
                warn(chunk, "acTL after IDAT (the file is shown as a still image)")
                return .skippedChunk(chunk, remaining: chunk.length)
            }
            if let apng, apng.isDeclared || apng.isRejected {
                // Several acTL chunks make the animation invalid: the default image is shown (as Pillow
                // and the APNG test suite it carries expect).
                if !apng.isRejected { warn(chunk, "a second acTL chunk (the file is shown as a still image)") }
                apng.reject()
                return .skippedChunk(chunk, remaining: chunk.length)
            }
            guard chunk.length == AnimationControl.length else {
                warn(chunk, "acTL is \(chunk.length) bytes long, expected \(AnimationControl.length)")
                return .skippedChunk(chunk, remaining: chunk.length)
            }
            return .bufferedChunk(chunk)
        case .fcTL:
            if apng == nil, !order.sawIDAT, let ihdr {
                // An fcTL may come before acTL; if IDAT comes with no acTL, the file is a still image.
                apng = APNGAnimation(canvasWidth: ihdr.width, canvasHeight: ihdr.height)
            }
            guard let apng, !apng.readerStopped else { return .skippedChunk(chunk, remaining: chunk.length) }
            guard chunk.length == FrameControl.length else {
                apng.stop(with: ImageDecodingError(.invalidData, at: chunk.offset,
                                                   "APNG fcTL is \(chunk.length) bytes long, expected \(FrameControl.length)"))
                return .skippedChunk(chunk, remaining: chunk.length)
            }
            return .bufferedChunk(chunk)
        case .fdAT:
            guard let apng, !apng.readerStopped else { return .skippedChunk(chunk, remaining: chunk.length) }
            apng.record { reader in
                try reader.admitFrameData(chunk)
                return nil
            }
            return apng.readerStopped ? .skippedChunk(chunk, remaining: chunk.length) : .animationData(chunk, remaining: chunk.length)
        case .IDAT:
            if let apng, !apng.isDeclared, !apng.isRejected {
                warn(chunk, "fcTL without acTL before IDAT (the file is shown as a still image)")
                apng.reject()
            }
            apng?.reader.startImageData()
            return nil
        case .IEND:
            apng?.end(at: chunk)
            return nil
        default:
            return nil
        }
    }

    /// A whole acTL or fcTL chunk whose CRC matched.
    func processAnimationChunk(_ chunk: ChunkHeader, _ data: UnsafeRawBufferPointer) {
        guard let ihdr else { return }
        if chunk.type == .acTL {
            switch AnimationControl.parse(data) {
            case .valid(let control):
                let animation = apng ?? APNGAnimation(canvasWidth: ihdr.width, canvasHeight: ihdr.height)
                apng = animation
                animation.declare(control, chunk: chunk)
            case .ignored(let reason):
                warn(chunk, reason + " (the file is shown as a still image)")
                // Kept, rejected, so that fcTL chunks around it are skipped without more warnings.
                let animation = apng ?? APNGAnimation(canvasWidth: ihdr.width, canvasHeight: ihdr.height)
                apng = animation
                animation.reject()
            }
        } else {
            apng?.record { reader in try reader.readFrameControl(data, chunk: chunk) }
        }
    }

    /// A buffered chunk failed its CRC check (and was dropped with a warning): a damaged fcTL ends the animation.
    func droppedDamagedChunk(_ chunk: ChunkHeader) {
        guard chunk.type == .fcTL else { return }
        apng?.stop(with: ImageDecodingError(.checksumMismatch, at: chunk.crcOffset, "APNG fcTL chunk CRC does not match its data"))
    }

    /// The `.animationData` stage: an fdAT chunk's sequence number, then its frame data, queued
    /// as it arrives. Returns the next stage, or nil when more input is needed.
    func advanceAnimationData(_ chunk: ChunkHeader, remaining: Int, _ available: UnsafeRawBufferPointer) -> Stage? {
        if remaining == chunk.length {
            // The sequence number: 4 bytes, read whole (routing let only chunks of 4 or more bytes here).
            guard available.count >= 4 else { return nil }
            chunkCRC.update(UnsafeRawBufferPointer(rebasing: available[0..<4]))
            parserBytesExamined += 4
            let number = readUInt32(available, 0)
            input.consume(4)
            apng?.record { reader in
                try reader.readFrameDataSequence(number, chunk: chunk)
                return nil
            }
            return .animationData(chunk, remaining: remaining - 4)
        }
        let count = min(remaining, available.count)
        guard count > 0 || remaining == 0 else { return nil }
        let data = UnsafeRawBufferPointer(rebasing: available[0..<count])
        chunkCRC.update(data)
        parserBytesExamined += count
        if let apng, !apng.readerStopped { apng.events.appendData(data, at: input.consumedOffset) }
        input.consume(count)
        return remaining == count ? .chunkCRC(chunk) : .animationData(chunk, remaining: remaining - count)
    }

    /// A streamed chunk's CRC was checked (`intact`: it matched, or checks are off). An fdAT
    /// chunk's end lets a frame complete; a damaged one ends the animation. After an IDAT chunk,
    /// a complete default image that is frame 0 is queued.
    func streamedChunkChecked(_ chunk: ChunkHeader, intact: Bool) {
        guard let apng, !apng.readerStopped else { return }
        if chunk.type == .fdAT {
            if intact {
                apng.events.append(.chunkEnd)
            } else {
                apng.stop(with: ImageDecodingError(.checksumMismatch, at: chunk.crcOffset, "APNG fdAT chunk CRC does not match its data"))
            }
        } else if chunk.type == .IDAT, apng.reader.defaultImageIsFrame, !apng.queuedDefaultImage,
                  let inflater, let scanlines, inflater.isFinished, scanlines.isComplete {
            apng.queuedDefaultImage = true
            apng.events.append(.defaultImage(scanlines.picture(orientation: .up, iccProfile: nil)))
        }
    }
}
