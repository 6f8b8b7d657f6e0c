import ImageCore

/// Everything a ``PNGDecoder`` keeps for an animated PNG, from a valid acTL on: the chunk
/// reader's checks, the events it queued, and the assembler that turns them into frames when
/// ``PNGDecoder/nextFrame()`` asks.
///
/// The animation fails on its own: a broken fcTL or fdAT ends it with an error (queued after
/// the frames before it), while the default image decodes on as if the file were a still PNG,
/// which is what the APNG spec asks of a viewer ("revert to displaying the default image").
final class APNGAnimation {
    /// From acTL; nil while only an fcTL has come (the spec orders acTL only before IDAT), and
    /// after ``reject()``.
    private(set) var info: AnimationInfo?
    var reader: APNGChunkReader
    var events = APNGEventQueue()
    var assembler = APNGFrameAssembler()
    /// The reader is done (IEND read, or an error queued): later animation chunks are skipped.
    private(set) var readerStopped = false
    /// The IDAT image was queued as frame 0.
    var queuedDefaultImage = false

    /// Whether acTL has been read.
    var isDeclared: Bool { reader.control != nil }
    /// The file turned out not to be animated after all (a second acTL, or IDAT with no acTL).
    private(set) var isRejected = false

    /// Starts at the first acTL or fcTL before IDAT.
    init(canvasWidth: Int, canvasHeight: Int) {
        reader = APNGChunkReader(canvasWidth: canvasWidth, canvasHeight: canvasHeight)
    }

    /// The acTL chunk.
    func declare(_ control: AnimationControl, chunk: ChunkHeader) {
        info = AnimationInfo(loopCount: control.playCount, declaredFrameCount: control.frameCount,
                             canvasWidth: reader.canvasWidth, canvasHeight: reader.canvasHeight)
        record { reader in
            try reader.readAnimationControl(control, chunk: chunk)
            return nil
        }
    }

    /// Drops the animation: the file is a still image (no frames, no info).
    func reject() {
        isRejected = true
        readerStopped = true
        info = nil
        events = APNGEventQueue()
    }

    /// Runs one step of the reader, queuing the event it gives or the error it throws.
    func record(_ step: (inout APNGChunkReader) throws -> APNGEventQueue.Event?) {
        guard !readerStopped else { return }
        do {
            if let event = try step(&reader) { events.append(event) }
        } catch let error as ImageDecodingError {
            stop(with: error)
        } catch {
            stop(with: ImageDecodingError(.internal, at: nil, "APNG reader: \(error)"))
        }
    }

    /// Ends the animation with `error` after the frames already queued (no-op once stopped).
    func stop(with error: ImageDecodingError) {
        guard !readerStopped else { return }
        events.append(.failure(error))
        readerStopped = true
    }

    /// IEND was read and checked: the animation is complete.
    func end(at chunk: ChunkHeader) {
        record { reader in
            try reader.end(at: chunk)
            return .end(offset: chunk.offset)
        }
        readerStopped = true
    }
}
