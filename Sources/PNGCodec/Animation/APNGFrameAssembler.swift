import ImageCore

/// Turns the animation's events into composited frames, one per call to ``next(from:source:)``:
/// each fdAT frame's zlib data is inflated and unfiltered as for IDAT (``ImageDataStream``, at
/// the frame's size), expanded to rgba8/rgba16, and drawn by the ``APNGCompositor``.
///
/// A frame is complete when its zlib stream has ended, every row has arrived and the fdAT chunk
/// holding the end has passed its CRC check. fdAT data after that is ignored until the next
/// fcTL (libpng ignores "extra compressed data" too). A frame whose data stops short when the
/// next fcTL or IEND comes is an error.
struct APNGFrameAssembler {
    private enum Phase {
        /// Between frames: the next event should be an fcTL.
        case awaitingControl
        /// Frame 0 is the IDAT image; waiting for it to be complete.
        case awaitingDefaultImage(FrameControl)
        /// Inflating an fdAT frame.
        case decoding(FrameControl, ImageDataStream)
        /// The frame was delivered; later fdAT data of it is ignored.
        case delivered
        /// IEND came after a complete frame.
        case ended
        /// An error ended the animation (sticky).
        case failed(ImageDecodingError)
    }

    private var phase = Phase.awaitingControl
    private var compositor: APNGCompositor?
    /// Frames delivered so far.
    private(set) var framesDelivered = 0
    /// Compressed frame bytes read by the frames' inflaters.
    var inflatedBytesExamined = 0

    /// Takes events until a frame is complete (returned), the events run out (nil), or an error.
    mutating func next(from events: inout APNGEventQueue, source: APNGFrameSource) throws -> AnimationFrame? {
        if case .failed(let error) = phase { throw error }
        while let event = events.takeEvent() {
            do {
                if let frame = try take(event, from: &events, source: source) { return frame }
            } catch let error as ImageDecodingError {
                phase = .failed(error)
                throw error
            }
        }
        return nil
    }

    private mutating func take(_ event: APNGEventQueue.Event, from events: inout APNGEventQueue,
                               source: APNGFrameSource) throws -> AnimationFrame? {
        switch (event, phase) {
        case (_, .failed(let error)):
            throw error
        case (_, .ended):
            return nil
        case (.failure(let error), _):
            throw error
        case (.control(let control, let isDefaultImage), _):
            try checkFrameComplete(at: control.chunkOffset)
            if isDefaultImage {
                phase = .awaitingDefaultImage(control)
                return nil
            }
            guard let stream = source.makeStream(for: control.region) else {
                throw ImageDecodingError(.limitExceeded, at: control.chunkOffset,
                                         "APNG frame \(control.region.width)×\(control.region.height) is too large to hold in memory")
            }
            phase = .decoding(control, stream)
            return nil
        case (.data(let offset, let count), .decoding(_, let stream)):
            let before = stream.inflater.inputBytesExamined
            defer { inflatedBytesExamined += stream.inflater.inputBytesExamined - before }
            try events.takeData(count) { try stream.inflate($0, at: offset) }
            return nil
        case (.data(_, let count), _):
            // Extra data after a finished frame (the reader lets no fdAT reach any other phase).
            events.takeData(count) { _ in }
            return nil
        case (.chunkEnd, .decoding(let control, let stream)):
            guard stream.isComplete else { return nil }
            phase = .delivered
            return deliver(control, pixels: stream.scanlines.picture(orientation: .up, iccProfile: nil).pixels, source: source)
        case (.chunkEnd, _):
            return nil
        case (.defaultImage(let image), .awaitingDefaultImage(let control)):
            phase = .delivered
            let pixels = image.format == source.format ? image.pixels : image.converted(to: source.format).pixels
            return deliver(control, pixels: pixels, source: source)
        case (.defaultImage, _):
            return nil
        case (.end(let offset), _):
            try checkFrameComplete(at: offset)
            phase = .ended
            return nil
        }
    }

    /// A new fcTL or IEND came: the frame being decoded must be complete.
    private func checkFrameComplete(at offset: Int) throws {
        switch phase {
        case .decoding(let control, let stream):
            throw ImageDecodingError(.invalidData, at: offset,
                                     "APNG frame \(framesDelivered) (fcTL at offset \(control.chunkOffset)) ends after \(stream.scanlines.rowsDecoded) rows of data; it needs more")
        case .awaitingDefaultImage(let control):
            throw ImageDecodingError(.invalidData, at: offset, "APNG frame 0 (the IDAT image, fcTL at offset \(control.chunkOffset)) is incomplete")
        default:
            return
        }
    }

    /// Draws a complete frame and packages the canvas.
    private mutating func deliver(_ control: FrameControl, pixels: [UInt8], source: APNGFrameSource) -> AnimationFrame {
        // Taken out while drawing, so the canvas has one owner and is not copied on write.
        var compositor = self.compositor ?? APNGCompositor(width: source.header.width, height: source.header.height, format: source.format)
        self.compositor = nil
        let disposal = compositor.effectiveDisposal(control.disposal)
        compositor.draw(pixels, region: control.region, blend: control.blend, disposal: control.disposal)
        self.compositor = compositor
        let index = framesDelivered
        framesDelivered += 1
        let region = control.region
        return AnimationFrame(index: index,
                              image: Image(width: compositor.width, height: compositor.height, format: source.format, pixels: compositor.canvas),
                              duration: control.duration, region: region,
                              regionImage: Image(width: region.width, height: region.height, format: source.format, pixels: pixels),
                              disposal: disposal, blend: control.blend)
    }
}
