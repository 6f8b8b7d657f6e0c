import ImageCore

/// What an animated file's decoder keeps between frames.
final class AnimationState {
    var info: AnimationInfo
    var compositor: AnimationCompositor
    /// ANMF payloads received and not composited yet, with their file offsets, from `pendingStart` on
    /// (taken from the front by index: removing the first element would move all the others).
    var pending: [(payload: [UInt8], offset: Int)] = []
    var pendingStart = 0
    /// The frame composited ahead of ``WebPDecoder/nextFrame()`` (the first one, eagerly, so
    /// ``WebPDecoder/currentImage()`` can show it).
    var ready: AnimationFrame?
    /// The first frame's canvas: the default image.
    var firstFrame: Image?
    var compositedCount = 0
    var failure: ImageDecodingError?
    /// The first frame's image, decoded while its ANMF chunk arrives so previews show its rows.
    var firstFrameStream: (chunk: AnimationFrameChunk, decoder: WebPFrameDecoder)?

    init(canvasWidth: Int, canvasHeight: Int) {
        info = AnimationInfo(loopCount: 0, declaredFrameCount: nil, canvasWidth: canvasWidth, canvasHeight: canvasHeight)
        compositor = AnimationCompositor(width: canvasWidth, height: canvasHeight)
    }
}

extension WebPDecoder: AnimatedImageDecoder {
    /// Loop count and canvas of an animated file (from `VP8X` and `ANIM`); nil for a still image.
    public var animation: AnimationInfo? { animationState?.info }

    /// The next composited frame whose `ANMF` chunk has all arrived, composited as libwebp's
    /// `WebPAnimDecoder` does (see ``AnimationCompositor``); nil if none is waiting.
    public func nextFrame() throws -> AnimationFrame? {
        guard let state = animationState else { return nil }
        if let failure = state.failure { throw failure }
        if let ready = state.ready {
            state.ready = nil
            return convertedForOutput(ready)
        }
        guard state.pendingStart < state.pending.count else { return nil }
        let next = state.pending[state.pendingStart]
        state.pending[state.pendingStart].payload = []
        state.pendingStart += 1
        if state.pendingStart == state.pending.count {
            state.pending.removeAll(keepingCapacity: true)
            state.pendingStart = 0
        }
        do {
            return convertedForOutput(try compositeFrame(next.payload, at: next.offset, state))
        } catch {
            state.failure = error
            throw error
        }
    }

    /// A whole ANMF payload has arrived: queue it, and composite it at once if it is the first.
    func receivedAnimationFrame(_ payload: [UInt8], at offset: Int) throws(ImageDecodingError) {
        guard let state = animationState else { return }
        if state.compositedCount == 0 {
            try streamFirstFrame(payload, declaredSize: payload.count, at: offset)
            let frame = try compositeFrame(payload, at: offset, state, decoded: state.firstFrameStream?.decoder)
            state.firstFrameStream = nil
            state.ready = frame
            state.firstFrame = frame.image
            previewGeneration += 1
        } else {
            state.pending.append((payload, offset))
        }
    }

    /// The first ANMF chunk has `payload` of its `declaredSize` bytes: decode what its image
    /// chunk holds so far (the first frame is always a key frame, so its rows can be shown as
    /// they come, on a transparent canvas).
    /// `force` (at the end of input) retries work put off until more data came, as in ``finish()``.
    func streamFirstFrame(_ payload: [UInt8], declaredSize: Int, at offset: Int, force: Bool = false) throws(ImageDecodingError) {
        guard let state = animationState, state.compositedCount == 0 else { return }
        if state.firstFrameStream == nil {
            guard let chunk = try AnimationFrameChunk.parse(payload, declaredSize: declaredSize, at: offset,
                                                            canvasWidth: state.info.canvasWidth,
                                                            canvasHeight: state.info.canvasHeight) else { return }
            state.firstFrameStream = (chunk, makeFrameDecoder(chunk))
        }
        guard let (chunk, decoder) = state.firstFrameStream, !decoder.isComplete else { return }
        let range = chunk.imagePayloadRange(anmfOffset: offset)
        let end = min(payload.count, range.upperBound)
        let start = range.lowerBound + decoder.consumed
        // Forced at the end of input, it runs even with no new bytes: rows put off until the
        // partition grew (bytes already taken) are retried, as a whole feed would have decoded them.
        guard end > start || force else { return }
        let rowsBefore = decoder.completedRows
        try run(decoder, on: payload, start..<end, force: force)
        if decoder.completedRows != rowsBefore { previewGeneration += 1 }
    }

    private func makeFrameDecoder(_ chunk: AnimationFrameChunk) -> WebPFrameDecoder {
        let bitstream: WebPFrameDecoder.Bitstream = chunk.image.tag == .vp8l ? .lossless : .lossy(alpha: chunk.alpha)
        return WebPFrameDecoder(bitstream: bitstream, limits: options.limits, payloadOffset: chunk.image.payloadOffset,
                                payloadSize: chunk.image.size, requiredSize: (chunk.width, chunk.height), alwaysAlpha: true)
    }

    /// Runs `decoder` on `payload[range]`.
    private func run(_ decoder: WebPFrameDecoder, on payload: [UInt8], _ range: Range<Int>,
                     force: Bool = false) throws(ImageDecodingError) {
        let failure: ImageDecodingError? = payload.withUnsafeBytes { raw in
            do throws(ImageDecodingError) {
                _ = try decoder.run(window: UnsafeRawBufferPointer(rebasing: raw[range]), force: force)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }

    /// The first frame's rows decoded so far on a transparent canvas, once its size is known.
    var firstFramePreview: Image? {
        guard let state = animationState, let (chunk, decoder) = state.firstFrameStream, decoder.hasHeader else { return nil }
        var canvas = Image(blankWidth: state.info.canvasWidth, height: state.info.canvasHeight, format: .rgba8)
        let rowBytes = chunk.width * 4
        for row in 0..<decoder.completedRows {
            let target = ((chunk.y + row) * state.info.canvasWidth + chunk.x) * 4
            canvas.pixels.replaceSubrange(target..<(target + rowBytes), with: decoder.pixels[(row * rowBytes)..<((row + 1) * rowBytes)])
        }
        return canvas
    }

    /// Decodes one frame's image (unless `decoded` already holds it) and composites it.
    private func compositeFrame(_ payload: [UInt8], at offset: Int, _ state: AnimationState,
                                decoded: WebPFrameDecoder? = nil) throws(ImageDecodingError) -> AnimationFrame {
        guard let chunk = try AnimationFrameChunk.parse(payload, declaredSize: payload.count, at: offset,
                                                        canvasWidth: state.info.canvasWidth,
                                                        canvasHeight: state.info.canvasHeight) else {
            throw ImageDecodingError(.invalidData, at: offset, "ANMF chunk holds no VP8 or VP8L image")
        }
        let decoder: WebPFrameDecoder
        if let decoded {
            decoder = decoded
        } else {
            decoder = makeFrameDecoder(chunk)
            try run(decoder, on: payload, chunk.imagePayloadRange(anmfOffset: offset))
        }
        guard decoder.isComplete else {
            throw ImageDecodingError(.invalidData, at: chunk.image.payloadOffset, "animation frame \(state.compositedCount) is incomplete")
        }
        let region = FrameRegion(x: chunk.x, y: chunk.y, width: chunk.width, height: chunk.height)
        state.compositor.composite(decoder.pixels, region: region, hasAlpha: decoder.hasAlpha, blends: chunk.blends,
                                   disposesToBackground: chunk.disposesToBackground)
        let index = state.compositedCount
        state.compositedCount += 1
        let canvas = Image(width: state.info.canvasWidth, height: state.info.canvasHeight, format: .rgba8,
                           pixels: state.compositor.canvas)
        return AnimationFrame(index: index, image: canvas, duration: Double(chunk.durationMilliseconds) / 1000,
                              region: region,
                              regionImage: Image(width: chunk.width, height: chunk.height, format: .rgba8, pixels: decoder.pixels),
                              disposal: chunk.disposesToBackground ? .background : .none,
                              blend: chunk.blends ? .over : .source)
    }
}
