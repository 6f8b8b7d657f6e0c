import ImageCore

/// What the chunk parser has read of an animation and the frame assembler has not used yet, in
/// file order. The parser runs ahead (it must reach IEND for the default image whoever asks for
/// frames); frames are decoded only when ``PNGDecoder/nextFrame()`` asks, from here.
///
/// Frame data is copied once into `bytes`; each `.data` event names how many of the next bytes
/// are its. Example: fdAT chunks of 100 and 50 data bytes give `.data(count: 100)`, `.chunkEnd`,
/// `.data(count: 50)`, `.chunkEnd`, and `bytes` holds 150 bytes until they are taken. Pieces of
/// one chunk fed separately merge into one event.
struct APNGEventQueue {
    /// One step of the animation.
    enum Event {
        /// An fcTL chunk (checked); `isDefaultImage` when it came before IDAT, so the IDAT image is this frame.
        case control(FrameControl, isDefaultImage: Bool)
        /// `count` bytes of fdAT frame data (sequence number removed), the first at file offset `offset`.
        case data(offset: Int, count: Int)
        /// The fdAT chunk whose data came last ended with a good CRC.
        case chunkEnd
        /// The IDAT image is complete (its zlib stream ended, every row arrived, CRCs good).
        case defaultImage(Image)
        /// IEND (its chunk at file offset `offset`): the animation is over.
        case end(offset: Int)
        /// The animation cannot go on (bad chunk, or the file failed or ended early); frames before stay valid.
        case failure(ImageDecodingError)
    }

    private var events: [Event] = []
    private var nextEvent = 0
    private var bytes: [UInt8] = []
    private var nextByte = 0

    /// Whether every event has been taken.
    var isEmpty: Bool { nextEvent >= events.count }

    /// Adds an event.
    mutating func append(_ event: Event) { events.append(event) }

    /// Adds frame data found at file offset `offset`, merging it with the event before when that
    /// ends where this begins (the same chunk fed in pieces).
    mutating func appendData(_ data: UnsafeRawBufferPointer, at offset: Int) {
        guard data.count > 0 else { return }
        bytes.append(contentsOf: data)
        if nextEvent < events.count, case .data(let start, let count) = events[events.count - 1], start + count == offset {
            events[events.count - 1] = .data(offset: start, count: count + data.count)
        } else {
            events.append(.data(offset: offset, count: data.count))
        }
    }

    /// Takes the oldest event.
    mutating func takeEvent() -> Event? {
        guard nextEvent < events.count else { return nil }
        let event = events[nextEvent]
        nextEvent += 1
        if nextEvent == events.count {
            events.removeAll(keepingCapacity: true)
            nextEvent = 0
        } else if nextEvent >= 1024 && nextEvent * 2 >= events.count {
            // Drop the taken prefix now and then: O(1) per event, amortised.
            events.removeSubrange(0..<nextEvent)
            nextEvent = 0
        }
        return event
    }

    /// Runs `body` on the next `count` data bytes (those of the `.data` event just taken) and drops them.
    mutating func takeData<R>(_ count: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let end = min(nextByte + count, bytes.count)
        let result = try bytes.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[nextByte..<end])) }
        nextByte = end
        if nextByte == bytes.count {
            bytes.removeAll(keepingCapacity: true)
            nextByte = 0
        } else if nextByte >= 1 << 16 && nextByte * 2 >= bytes.count {
            bytes.removeSubrange(0..<nextByte)
            nextByte = 0
        }
        return result
    }

    /// Frame data bytes held, not yet decoded.
    var heldBytes: Int { bytes.count - nextByte }
}
